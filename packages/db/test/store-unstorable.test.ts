import { createTestDb, insertConversion, type TestDb } from '@markwright/test-support';
import { completeConversion, failConversion } from '../src';

let t: TestDb;
beforeAll(async () => (t = await createTestDb()));
afterAll(() => t?.cleanup());

const processingConversion = () => insertConversion(t.db, { status: 'processing', includeMetadata: true });

describe('results PostgreSQL could not store as they are', () => {
  it('When a result holds NUL and lone surrogates in its Markdown and metadata, then it is stored without them and returned as stored', async () => {
    const id = await processingConversion();
    const stored = await completeConversion(t.db, id, {
      markdown: '# A\u0000B\n\nx\ud800y\n',
      metadata: { title: 'A\u0000B', author: '\udc00', page_count: 1 },
      tokenOptimization: null,
    });
    const row = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    const expected = { markdown: '# AB\n\nx\ufffdy\n', metadata: { title: 'AB', author: '\ufffd', page_count: 1 } };
    expect({ markdown: row.markdown, metadata: row.metadata }).toEqual(expected);
    expect(stored).toEqual({ ...expected, tokenOptimization: null });
  });

  it('When the conversion has already finished, then the late result is dropped and nothing is returned', async () => {
    const id = await processingConversion();
    await failConversion(t.db, id, 'timed out');
    const late = await completeConversion(t.db, id, { markdown: 'late', metadata: null, tokenOptimization: null });
    const row = await t.db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ late, status: row.status, markdown: row.markdown }).toEqual({
      late: null,
      status: 'failed',
      markdown: null,
    });
  });

  it('When a failure message holds NUL, then the conversion is failed with it removed', async () => {
    const id = await processingConversion();
    expect(await failConversion(t.db, id, 'bad\u0000 file')).toEqual({ refunded: 1 });
    expect((await t.db.conversion.findUniqueOrThrow({ where: { id } })).error).toBe('bad file');
  });
});
