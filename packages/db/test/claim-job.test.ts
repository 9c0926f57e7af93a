import { createTestDb, insertConversion, type TestDb } from '@markwright/test-support';
import { claimJob, readUpload } from '../src';

const INLINE = 1024;

let t: TestDb;
// One connection: the statement after the claim runs on the claim's own session.
beforeAll(async () => (t = await createTestDb(1)));
afterAll(() => t?.cleanup());

describe('claiming a job', () => {
  it('When a pending job is claimed, then it is processing with a start time and its inputs, mode and bytes come back', async () => {
    const id = await insertConversion(t.db, { optimizeTokens: true, upload: Buffer.from('hi') });
    const job = await claimJob(t.db, id, INLINE);
    const row = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ ...job, bytes: job?.bytes && Buffer.from(job.bytes).toString() }).toEqual({
      mode: 'sync',
      extension: 'txt',
      originalFilename: 'a.txt',
      useEnhancedAi: false,
      optimizeTokens: true,
      includePages: false,
      pageRange: null,
      chunkMaxTokens: null,
      includeDocument: false,
      bytes: 'hi',
      size: 2,
    });
    expect({ status: row.status, started: row.startedAt instanceof Date }).toEqual({
      status: 'processing',
      started: true,
    });
  });

  it('When the upload is gone, then the job still comes back, without bytes or size', async () => {
    const id = await insertConversion(t.db, { mode: 'async' });
    const job = await claimJob(t.db, id, INLINE);
    expect({ bytes: job?.bytes, size: job?.size }).toEqual({ bytes: null, size: null });
    expect(await readUpload(t.db, id)).toBeNull();
  });

  it('When the upload is larger than the claim takes inline, then the claim gives its size only and the bytes are read after', async () => {
    const upload = Buffer.alloc(INLINE + 1, 'x');
    const id = await insertConversion(t.db, { upload });
    const job = await claimJob(t.db, id, INLINE);
    expect({ bytes: job?.bytes, size: job?.size }).toEqual({ bytes: null, size: INLINE + 1 });
    expect(Buffer.from((await readUpload(t.db, id))!).equals(upload)).toBe(true);
  });

  it('When the claim commits without waiting for the WAL, then later commits on its connection still wait (synchronous_commit stays on)', async () => {
    const id = await insertConversion(t.db, { optimizeTokens: true, upload: Buffer.from('hi') });
    await claimJob(t.db, id, INLINE);
    expect(await t.db.$queryRaw`SELECT current_setting('synchronous_commit') AS setting`).toEqual([{ setting: 'on' }]);
  });
});
