import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestEnv, type TestEnv } from '@markwright/test-support';
import { migrate } from '../src/migrate';

const MIGRATIONS = fs.readdirSync(path.join(__dirname, '..', 'migrations')).filter((f) => f.endsWith('.sql'));
const PODS = 4;

let env: TestEnv;
let freshUrl: string;

beforeAll(async () => {
  env = await createTestEnv();
  const url = new URL(env.config.DATABASE_URL);
  url.pathname = `/${env.databaseName}_fresh`;
  freshUrl = url.toString();
}, 60_000);
afterAll(async () => {
  if (freshUrl) await dropFresh();
  await env?.cleanup();
});

async function admin(work: (c: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: env.config.DATABASE_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
const dropFresh = () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${env.databaseName}_fresh" WITH (FORCE)`));

describe('migrations run by several pods at once (each Deployment migrates in an init container)', () => {
  it.each([
    ['does not exist yet', false],
    ['exists, empty', true],
  ])(
    'When several processes migrate at the same moment a database that %s, then all succeed and each migration is applied exactly once',
    async (_, created) => {
      await dropFresh();
      if (created) await admin((c) => c.query(`CREATE DATABASE "${env.databaseName}_fresh"`));
      const results = await Promise.all(Array.from({ length: PODS }, () => migrate(freshUrl)));
      expect(results.flatMap((r) => r.applied.map((f) => path.basename(f))).sort()).toEqual(MIGRATIONS.sort());
      const client = new Client({ connectionString: freshUrl });
      await client.connect();
      try {
        const rows = await client.query('SELECT count(*)::int AS n FROM schema_migrations WHERE version > 0');
        expect(rows.rows[0].n).toBe(MIGRATIONS.length);
      } finally {
        await client.end();
      }
    },
  );
});
