import { createDb, type Db, uuidv7 } from '@markwright/db';
import { createTestEnv, type TestEnv } from './index';

/** A database of this test file's own (see createTestEnv) with a client on it. */
export interface TestDb {
  env: TestEnv;
  db: Db;
  cleanup(): Promise<void>;
}

export async function createTestDb(poolSize = 2): Promise<TestDb> {
  const env = await createTestEnv();
  const db = createDb(env.config.DATABASE_URL, poolSize);
  return {
    env,
    db,
    async cleanup() {
      await db.$disconnect();
      await env.cleanup();
    },
  };
}

/**
 * A workspace with one conversion row (1 credit charged, no ledger rows), and its upload when
 * `upload` is given: for tests of the lifecycle statements, without the gateway. Returns its id.
 */
export async function insertConversion(
  db: Db,
  fields: {
    status?: 'pending' | 'processing';
    mode?: 'sync' | 'async';
    originalFilename?: string;
    includeMetadata?: boolean;
    optimizeTokens?: boolean;
    upload?: Buffer;
  } = {},
): Promise<string> {
  const workspaceId = uuidv7();
  await db.workspace.create({ data: { id: workspaceId, name: 'w', plan: 'free', creditBalance: 0 } });
  const id = uuidv7();
  const originalFilename = fields.originalFilename ?? 'a.txt';
  await db.conversion.create({
    data: {
      id,
      workspaceId,
      status: fields.status ?? 'pending',
      originalFilename,
      extension: originalFilename.split('.').pop()!,
      fileSizeBytes: fields.upload?.length ?? 1,
      useEnhancedAi: false,
      includeMetadata: fields.includeMetadata ?? false,
      optimizeTokens: fields.optimizeTokens ?? false,
      mode: fields.mode ?? 'sync',
      creditsCharged: 1,
      createdAt: new Date(),
    },
  });
  if (fields.upload) await db.upload.create({ data: { conversionId: id, bytes: new Uint8Array(fields.upload) } });
  return id;
}
