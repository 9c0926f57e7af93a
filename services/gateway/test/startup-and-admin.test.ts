import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestEnv, type TestEnv } from '@markwright/test-support';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const GATEWAY_MAIN = path.join(ROOT, 'services', 'gateway', 'src', 'entry-points', 'main.ts');
const ADMIN = path.join(ROOT, 'services', 'gateway', 'src', 'entry-points', 'cli', 'admin.ts');

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env?.cleanup());

async function runProcess(file: string, args: string[], extraEnv: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, [file, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const admin = (...args: string[]) => runProcess(ADMIN, args, { DATABASE_URL: env.config.DATABASE_URL });

describe('start-up errors', () => {
  it('When a variable is invalid, then the gateway stops with a message naming it and no stack trace', async () => {
    const res = await runProcess(GATEWAY_MAIN, [], { PORT: 'eighty' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Invalid configuration:\n {2}PORT: .*\(got "eighty"\)\n$/);
  });

  it('When PostgreSQL is unreachable, then one line says so and how to start it', async () => {
    const res = await runProcess(GATEWAY_MAIN, [], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/markwright',
      PORT: '0',
    });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /^PostgreSQL is not reachable at postgresql:\/\/postgres@127\.0\.0\.1:1\/markwright .*docker compose up -d postgres/,
    );
  });

  it('When PostgreSQL answers but refuses the login, then one line says it is a login problem and how to fix it, not that it is unreachable', async () => {
    const url = new URL(env.config.DATABASE_URL);
    url.username = 'no_such_role';
    const res = await runProcess(GATEWAY_MAIN, [], { DATABASE_URL: url.toString(), PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /^PostgreSQL at postgresql:\/\/no_such_role@.* refused the login \(.*no_such_role.*\): let local connections in without a password .*pg_hba\.conf/,
    );
  });

  it('When RabbitMQ is unreachable, then one line says so and how to start it', async () => {
    const res = await runProcess(GATEWAY_MAIN, [], {
      DATABASE_URL: env.config.DATABASE_URL,
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:1',
      PORT: '0',
    });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /^RabbitMQ is not reachable at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1 .*rabbitmq-server -detached/,
    );
  });
});

describe('admin command line', () => {
  it('When a workspace is created, granted, shown and its token revoked, then each call prints one JSON object', async () => {
    const created = await admin('workspace', 'create', '--name', 'Acme', '--plan', 'starter', '--credits', '7');
    expect(created.code).toBe(0);
    const ws = JSON.parse(created.stdout);
    expect(Object.keys(ws)).toEqual(['workspace_id', 'token']);
    expect(ws.token).toMatch(/^mwk_[0-9A-Za-z]{40}$/);

    const token = await admin('token', 'create', '--workspace', ws.workspace_id);
    expect(JSON.parse(token.stdout)).toEqual({ token: expect.stringMatching(/^mwk_[0-9A-Za-z]{40}$/) });

    const granted = await admin('credits', 'grant', '--workspace', ws.workspace_id, '--amount', '5');
    expect(JSON.parse(granted.stdout)).toEqual({ balance: 12 });

    const shown = JSON.parse((await admin('workspace', 'show', '--workspace', ws.workspace_id)).stdout);
    expect(shown).toEqual({
      workspace_id: ws.workspace_id,
      plan: 'starter',
      credit_balance: 12,
      transactions: [
        { type: 'grant', amount: 7, conversion_id: null, created_at: expect.stringMatching(/\+00:00$/) },
        { type: 'grant', amount: 5, conversion_id: null, created_at: expect.stringMatching(/\+00:00$/) },
      ],
    });

    const revoked = await admin('token', 'revoke', '--token', ws.token);
    expect(revoked.stdout).toBe('{"revoked":true}\n');
  }, 180_000); // five CLI processes; each start takes seconds on busy cores

  it('When the plan is unknown, then it prints a JSON error on stderr and exits non-zero', async () => {
    const res = await admin('workspace', 'create', '--name', 'X', '--plan', 'gold', '--credits', '1');
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr)).toEqual({ error: '--plan must be one of free, starter, professional, business' });
  });
});
