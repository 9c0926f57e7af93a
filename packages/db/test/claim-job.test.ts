import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { claimJob, createDb, type Db, uuidv7 } from '../src';

let env: TestEnv;
let db: Db;

beforeAll(async () => {
  env = await createTestEnv();
  // One connection: the statement after the claim runs on the claim's own session.
  db = createDb(env.config.DATABASE_URL, 1);
});
afterAll(async () => {
  await db.$disconnect();
  await env.cleanup();
});

async function pendingConversion(mode: 'sync' | 'async', withUpload: boolean): Promise<string> {
  const workspaceId = uuidv7();
  await db.workspace.create({ data: { id: workspaceId, name: 'w', plan: 'free', creditBalance: 0 } });
  const id = uuidv7();
  await db.conversion.create({
    data: {
      id,
      workspaceId,
      status: 'pending',
      originalFilename: 'a.txt',
      extension: 'txt',
      fileSizeBytes: 2,
      useEnhancedAi: false,
      includeMetadata: false,
      optimizeTokens: true,
      mode,
      creditsCharged: 1,
      createdAt: new Date(),
    },
  });
  if (withUpload) await db.upload.create({ data: { conversionId: id, bytes: Buffer.from('hi') } });
  return id;
}

describe('claiming a job', () => {
  it('When a pending job is claimed, then it is processing with a start time and its inputs, mode and bytes come back', async () => {
    const id = await pendingConversion('sync', true);
    const job = await claimJob(db, id);
    const row = await db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ ...job, bytes: job?.bytes && Buffer.from(job.bytes).toString() }).toEqual({
      mode: 'sync',
      extension: 'txt',
      originalFilename: 'a.txt',
      useEnhancedAi: false,
      optimizeTokens: true,
      bytes: 'hi',
    });
    expect({ status: row.status, started: row.startedAt instanceof Date }).toEqual({
      status: 'processing',
      started: true,
    });
  });

  it('When the upload is gone, then the job still comes back, without bytes', async () => {
    const id = await pendingConversion('async', false);
    expect((await claimJob(db, id))?.bytes).toBeNull();
  });

  it('When the claim commits without waiting for the WAL, then later commits on its connection still wait (synchronous_commit stays on)', async () => {
    const id = await pendingConversion('sync', true);
    await claimJob(db, id);
    expect(await db.$queryRaw`SELECT current_setting('synchronous_commit') AS setting`).toEqual([{ setting: 'on' }]);
  });
});
