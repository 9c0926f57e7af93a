import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { completeConversion, createDb, type Db, failConversion, uuidv7 } from '../src';

let env: TestEnv;
let db: Db;

beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.config.DATABASE_URL, 2);
});
afterAll(async () => {
  await db.$disconnect();
  await env.cleanup();
});

async function processingConversion(): Promise<string> {
  const workspaceId = uuidv7();
  await db.workspace.create({ data: { id: workspaceId, name: 'w', plan: 'free', creditBalance: 0 } });
  const id = uuidv7();
  await db.conversion.create({
    data: {
      id,
      workspaceId,
      status: 'processing',
      originalFilename: 'a.txt',
      extension: 'txt',
      fileSizeBytes: 1,
      useEnhancedAi: false,
      includeMetadata: true,
      optimizeTokens: false,
      mode: 'sync',
      creditsCharged: 1,
      createdAt: new Date(),
    },
  });
  return id;
}

describe('results PostgreSQL could not store as they are', () => {
  it('When a result holds NUL and lone surrogates in its Markdown and metadata, then it is stored without them and returned as stored', async () => {
    const id = await processingConversion();
    const stored = await completeConversion(db, id, {
      markdown: '# A\u0000B\n\nx\ud800y\n',
      metadata: { title: 'A\u0000B', author: '\udc00', page_count: 1 },
      tokenOptimization: null,
    });
    const row = await db.conversion.findUniqueOrThrow({ where: { id } });
    const expected = { markdown: '# AB\n\nx\ufffdy\n', metadata: { title: 'AB', author: '\ufffd', page_count: 1 } };
    expect({ markdown: row.markdown, metadata: row.metadata }).toEqual(expected);
    expect(stored).toEqual({ ...expected, tokenOptimization: null });
  });

  it('When the conversion has already finished, then the late result is dropped and nothing is returned', async () => {
    const id = await processingConversion();
    await failConversion(db, id, 'timed out');
    const late = await completeConversion(db, id, { markdown: 'late', metadata: null, tokenOptimization: null });
    const row = await db.conversion.findUniqueOrThrow({ where: { id } });
    expect({ late, status: row.status, markdown: row.markdown }).toEqual({
      late: null,
      status: 'failed',
      markdown: null,
    });
  });

  it('When a failure message holds NUL, then the conversion is failed with it removed', async () => {
    const id = await processingConversion();
    expect(await failConversion(db, id, 'bad\u0000 file')).toEqual({ refunded: 1 });
    expect((await db.conversion.findUniqueOrThrow({ where: { id } })).error).toBe('bad file');
  });
});
