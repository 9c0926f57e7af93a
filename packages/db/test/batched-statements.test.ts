import { createTestDb, insertConversion, type TestDb } from '@markwright/test-support';
import { claimJob, COMPLETE_ALONE_CHARS, completeConversion, failConversion } from '../src';

let t: TestDb;
beforeAll(async () => (t = await createTestDb(4)));
afterAll(() => t?.cleanup());

/** The transaction that last wrote each row: rows written by one statement share it. */
async function writers(ids: string[]): Promise<string[]> {
  const rows = await t.db.$queryRawUnsafe<{ id: string; xmin: string }[]>(
    'SELECT id::text, xmin::text FROM conversions WHERE id = ANY($1::uuid[])',
    ids,
  );
  const byId = new Map(rows.map((r) => [r.id, r.xmin]));
  return ids.map((id) => byId.get(id)!);
}

const result = (markdown: string) => ({ markdown, metadata: null, tokenOptimization: null });

describe('claims and completions made together go as one statement', () => {
  it('When several jobs are claimed in one turn, then one transaction claims them all and each gets its own inputs', async () => {
    const ids = await Promise.all(
      ['a', 'b', 'c'].map((text) =>
        insertConversion(t.db, { originalFilename: `${text}.txt`, upload: Buffer.from(text) }),
      ),
    );
    const unknown = '0190a000-0000-7000-8000-000000000000';
    const jobs = await Promise.all([...ids, unknown].map((id) => claimJob(t.db, id, 1024)));
    expect(jobs.map((j) => j && [j.originalFilename, Buffer.from(j.bytes!).toString()])).toEqual([
      ['a.txt', 'a'],
      ['b.txt', 'b'],
      ['c.txt', 'c'],
      null,
    ]);
    expect(new Set(await writers(ids)).size).toBe(1);
  });

  it('When several results are stored in one turn, then one transaction stores them all, each its own, and a finished one is left as it was', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(() => insertConversion(t.db, { status: 'processing', upload: Buffer.from('x') })),
    );
    const finished = await insertConversion(t.db, { status: 'processing' });
    await failConversion(t.db, finished, 'timed out');
    const stored = await Promise.all(
      [...ids, finished].map((id, i) => completeConversion(t.db, id, result(`# result ${i}`))),
    );
    expect(stored.map((s) => s?.markdown ?? null)).toEqual(['# result 0', '# result 1', '# result 2', null]);
    const rows = await t.db.conversion.findMany({ where: { id: { in: [...ids, finished] } } });
    const byId = new Map(rows.map((r) => [r.id, [r.status, r.markdown]]));
    expect([...ids, finished].map((id) => byId.get(id))).toEqual([
      ['completed', '# result 0'],
      ['completed', '# result 1'],
      ['completed', '# result 2'],
      ['failed', null],
    ]);
    expect(new Set(await writers(ids)).size).toBe(1);
    expect(await t.db.upload.count({ where: { conversionId: { in: ids } } })).toBe(0);
  });

  it('When as many results finish together as a converter holds at 64 connections, then one transaction stores them all', async () => {
    const ids = await Promise.all(Array.from({ length: 64 }, () => insertConversion(t.db, { status: 'processing' })));
    await Promise.all(ids.map((id, i) => completeConversion(t.db, id, result(`# result ${i}`))));
    expect(new Set(await writers(ids)).size).toBe(1);
  });

  it('When a long result is stored with short ones, then it goes by a statement of its own', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => insertConversion(t.db, { status: 'processing' })));
    const long = 'x'.repeat(COMPLETE_ALONE_CHARS + 1);
    await Promise.all([
      completeConversion(t.db, ids[0]!, result('short')),
      completeConversion(t.db, ids[1]!, result(long)),
      completeConversion(t.db, ids[2]!, result('short too')),
    ]);
    const [a, b, c] = await writers(ids);
    expect(b).not.toBe(a);
    expect(b).not.toBe(c);
    const stored = await t.db.conversion.findUniqueOrThrow({ where: { id: ids[1]! } });
    expect(stored.markdown).toBe(long);
  });

  it('When PostgreSQL refuses one result of a batch, then the others are stored and only that one fails', async () => {
    await t.db.$executeRawUnsafe(
      `ALTER TABLE conversions ADD CONSTRAINT test_refuses_marker CHECK (markdown IS NULL OR markdown NOT LIKE '%REFUSED-BY-DB%')`,
    );
    try {
      const ids = await Promise.all([1, 2, 3].map(() => insertConversion(t.db, { status: 'processing' })));
      const outcomes = await Promise.allSettled(
        ['fine', '# REFUSED-BY-DB', 'fine too'].map((markdown, i) =>
          completeConversion(t.db, ids[i]!, result(markdown)),
        ),
      );
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value?.markdown : 'refused'))).toEqual([
        'fine',
        'refused',
        'fine too',
      ]);
      const rows = await t.db.conversion.findMany({ where: { id: { in: ids } } });
      const byId = new Map(rows.map((r) => [r.id, r.status]));
      expect(ids.map((id) => byId.get(id))).toEqual(['completed', 'processing', 'completed']);
    } finally {
      await t.db.$executeRawUnsafe('ALTER TABLE conversions DROP CONSTRAINT test_refuses_marker');
    }
  });
});
