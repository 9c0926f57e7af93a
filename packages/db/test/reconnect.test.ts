import { Client } from 'pg';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { createDb, type Db, retryOnConnectionLoss } from '../src';

let env: TestEnv;
let db: Db;
let admin: Client;

beforeAll(async () => {
  env = await createTestEnv();
  db = createDb(env.config.DATABASE_URL, 4, () => undefined);
  admin = new Client({ connectionString: env.config.DATABASE_URL });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterAll(async () => {
  await db.$disconnect();
  await admin?.end();
  await env?.cleanup();
});

/** Ends every connection of this file's own database but the admin one, as an administrator or a failover would. */
async function terminateOurConnections(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return rows[0]!.n;
}

describe('PostgreSQL connections terminated under load', () => {
  it('When connections are terminated during transactions and queries, then the process keeps running and the next query succeeds', async () => {
    let stop = false;
    const load = async () => {
      while (!stop) {
        await db
          .$transaction(async (tx) => {
            await tx.$queryRaw`SELECT pg_sleep(0.02)::text`;
            await tx.$queryRaw`SELECT 1`;
          })
          .catch(() => undefined);
        await db.$queryRaw`SELECT pg_sleep(0.01)::text`.catch(() => undefined);
      }
    };
    const loops = [load(), load(), load(), load()];
    let terminated = 0;
    for (let i = 0; i < 15; i++) {
      await new Promise((r) => setTimeout(r, 150));
      terminated += await terminateOurConnections();
    }
    stop = true;
    await Promise.all(loops);
    expect(terminated).toBeGreaterThan(0);
    expect(await db.$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
  });

  it('When the connection drops under a write, then retryOnConnectionLoss completes it over a fresh one', async () => {
    let calls = 0;
    const result = await retryOnConnectionLoss(async () => {
      calls += 1;
      if (calls === 1) {
        // Ends this write's own connection mid-statement.
        await db.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`;
      }
      return db.$queryRaw<Array<{ ok: number }>>`SELECT 1 AS ok`;
    });
    expect({ calls, result }).toEqual({ calls: 2, result: [{ ok: 1 }] });
  });

  it('When a write fails for another reason, then retryOnConnectionLoss throws it at once', async () => {
    let calls = 0;
    await expect(
      retryOnConnectionLoss(async () => {
        calls += 1;
        return db.$queryRaw`SELECT 1/0`;
      }),
    ).rejects.toThrow(/division by zero/);
    expect(calls).toBe(1);
  });
});
