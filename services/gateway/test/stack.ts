import type { Client } from 'pg';
import { stopInOrder } from '@markwright/config';
import { createTestEnv, silentLogger, type TestEnv } from '@markwright/test-support';
import { startConverter, type ConverterService } from '../../converter/src/converter-service';
import { startGateway, type Gateway } from '../src/gateway';
import { createWorkspace } from '../src/domain/workspaces';
import { uuidv7 } from '@markwright/db';
import type { NewConversion } from '../src/data-access/conversion-repository';
import type { PlanName } from '../src/domain/plans';

/** The real gateway (and optionally a real converter) in-process, on this file's own database and queues. */
export interface Stack {
  env: TestEnv;
  gateway: Gateway;
  converter?: ConverterService;
  workspace(plan?: PlanName, credits?: number): Promise<{ workspaceId: string; token: string }>;
  startConverter(): Promise<ConverterService>;
  stopConverter(): Promise<void>;
  stop(): Promise<void>;
  /** The workspace's credit transactions, oldest first. */
  ledger(workspaceId: string): Promise<Array<{ type: string; amount: number }>>;
}

/** How long a stopping test gateway lets requests in flight finish. */
const STOP_GRACE_MS = 5_000;

export async function startStack(options: { converter?: boolean; env?: Record<string, string> } = {}): Promise<Stack> {
  const env = await createTestEnv(options.env);
  // A suite whose setup fails must not leave its database behind (afterAll has no stack to stop).
  const gateway = await startGateway(env.config, silentLogger).catch(async (err: unknown) => {
    await env.cleanup().catch(() => undefined);
    throw err;
  });
  const stack: Stack = {
    env,
    gateway,
    workspace: (plan = 'free', credits = 100) =>
      createWorkspace(gateway.db, { name: `ws-${Math.random().toString(36).slice(2, 8)}`, plan, credits }),
    async startConverter() {
      stack.converter = await startConverter(env.config, silentLogger);
      return stack.converter;
    },
    async stopConverter() {
      await stack.converter?.stop();
      stack.converter = undefined;
    },
    async ledger(workspaceId) {
      const rows = await gateway.db.creditTransaction.findMany({
        where: { workspaceId },
        orderBy: { createdAt: 'asc' },
      });
      return rows.map((r) => ({ type: r.type, amount: r.amount }));
    },
    async stop() {
      await stopInOrder([
        () => stack.stopConverter(),
        // A request a test left open is cut after this, so the suite's teardown cannot outlast its hook.
        () => gateway.stop({ graceMs: STOP_GRACE_MS }),
        () => env.cleanup(),
      ]);
    },
  };
  if (options.converter !== false) {
    await stack.startConverter().catch(async (err: unknown) => {
      await stack.stop().catch(() => undefined);
      throw err;
    });
  }
  return stack;
}

export const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

/**
 * Records, for every conversion row inserted from now on, the `synchronous_commit` setting of the
 * transaction that inserted it, keyed by the row's `column` (as text), in a table `commit_modes
 * (key, synchronous_commit)`: how tests see whether a charge waited for the WAL flush.
 */
export async function recordCommitModes(pg: Client, column: 'id' | 'original_filename'): Promise<void> {
  await pg.query(`
    CREATE TABLE commit_modes (key text, synchronous_commit text);
    CREATE FUNCTION record_commit_mode() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO commit_modes VALUES (NEW.${column}::text, current_setting('synchronous_commit'));
      RETURN NULL;
    END $$;
    CREATE TRIGGER record_commit_mode AFTER INSERT ON conversions FOR EACH ROW EXECUTE FUNCTION record_commit_mode();`);
}

/** What the gateway's charge statement creates for a sync upload of a 5-byte `.txt` with no options; `fields` change it. */
export function newConversion(workspaceId: string, fields: Partial<NewConversion> = {}): NewConversion {
  return {
    id: uuidv7(),
    workspaceId,
    cost: 1,
    originalFilename: 'a.txt',
    extension: 'txt',
    fileSizeBytes: 5,
    useEnhancedAi: false,
    includeMetadata: false,
    optimizeTokens: false,
    includePages: false,
    pageRange: null,
    chunkMaxTokens: null,
    includeDocument: false,
    mode: 'sync',
    webhookUrl: null,
    webhookSecret: null,
    bytes: Buffer.from('hello'),
    ...fields,
  };
}
