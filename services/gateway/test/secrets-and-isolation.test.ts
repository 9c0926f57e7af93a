import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import request from 'supertest';
import { createLogger } from '@markwright/config';
import { openWebhookSecret, parseSecretKey } from '@markwright/contracts';
import { createTestEnv, eventually, type TestEnv } from '@markwright/test-support';
import { startConverter, type ConverterService } from '../../converter/src/converter-service';
import { startDispatcher, type DispatcherService } from '../../dispatcher/src/dispatcher-service';
import { startGateway, type Gateway } from '../src/gateway';
import { hashToken } from '../src/domain/tokens';
import { bearer } from './stack';

/** Issue 12.5: tokens and webhook secrets never leave in logs or responses; one workspace never sees another. */
const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const ADMIN = path.join(ROOT, 'services', 'gateway', 'src', 'entry-points', 'cli', 'admin.ts');
const SECRET = 'never-log-this-webhook-secret-0123456789';
const KEY = 'a1'.repeat(32);

const logLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString('utf8'));
    done();
  },
});

let env: TestEnv;
let gateway: Gateway;
let converter: ConverterService;
let dispatcher: DispatcherService;
const adminStderr: string[] = [];

async function admin(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout, stderr } = await run(TSX, [ADMIN, ...args], {
    env: { ...process.env, DATABASE_URL: env.config.DATABASE_URL, LOG_LEVEL: 'trace' },
    timeout: 60_000,
  });
  adminStderr.push(stderr);
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  env = await createTestEnv({
    LOG_LEVEL: 'trace',
    WEBHOOK_SECRET_KEY: KEY,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_DELAYS_MS: '60000,60000',
  });
  gateway = await startGateway(env.config, createLogger('gateway', 'trace', capture));
  converter = await startConverter(env.config, createLogger('converter', 'trace', capture));
  dispatcher = await startDispatcher(env.config, createLogger('dispatcher', 'trace', capture));
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await converter?.stop();
  await gateway?.stop();
  await env?.cleanup();
});

const api = () => request(gateway.url);

describe('secrets and workspace isolation', () => {
  let tokenA: string;
  let tokenA2: string;
  let tokenB: string;
  let workspaceA: string;
  let syncId: string;
  let asyncId: string;

  it('When the admin CLI creates workspaces and tokens, then each token is printed once on stdout and stored only hashed', async () => {
    const a = await admin('workspace', 'create', '--name', 'alpha', '--plan', 'free', '--credits', '10');
    const b = await admin('workspace', 'create', '--name', 'beta', '--plan', 'free', '--credits', '10');
    workspaceA = a.workspace_id as string;
    tokenA = a.token as string;
    tokenB = b.token as string;
    tokenA2 = (await admin('token', 'create', '--workspace', workspaceA)).token as string;
    const stored = await gateway.db.apiToken.findMany({ select: { tokenHash: true } });
    expect(stored.map((row) => row.tokenHash).sort()).toEqual([tokenA, tokenA2, tokenB].map(hashToken).sort());
    expect(JSON.stringify(await gateway.db.apiToken.findMany())).not.toMatch(/mwk_/);
  });

  it('When a conversion is made with a webhook secret, then the secret is stored encrypted and no response shows it', async () => {
    const sync = await api()
      .post('/convert')
      .set(...bearer(tokenA))
      .attach('file', Buffer.from('hello'), 'a.txt');
    expect(sync.status).toBe(200);
    syncId = (await gateway.db.conversion.findFirstOrThrow({ where: { mode: 'sync' } })).id;

    const accepted = await api()
      .post('/convert')
      .set(...bearer(tokenA))
      .field('webhook_url', 'https://127.0.0.1:9/hook')
      .field('webhook_secret', SECRET)
      .attach('file', Buffer.from('hello'), 'b.txt');
    expect(accepted.status).toBe(202);
    asyncId = accepted.body.id as string;

    const row = await gateway.db.conversion.findUniqueOrThrow({ where: { id: asyncId } });
    expect(row.webhookSecret).toMatch(/^v1:/);
    expect(row.webhookSecret).not.toContain(SECRET);
    expect(openWebhookSecret(row.webhookSecret!, parseSecretKey(KEY))).toBe(SECRET);

    const detail = await api()
      .get(`/conversions/${asyncId}`)
      .set(...bearer(tokenA2));
    const list = await api()
      .get('/conversions')
      .set(...bearer(tokenA2));
    expect(detail.status).toBe(200);
    expect(list.status).toBe(200);
    for (const body of [accepted.text, detail.text, list.text]) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain('webhook_secret');
    }
  });

  it("When another workspace's token is used on every endpoint, then it sees nothing of the first workspace", async () => {
    for (const id of [syncId, asyncId]) {
      const res = await api()
        .get(`/conversions/${id}`)
        .set(...bearer(tokenB));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Conversion not found.' });
    }
    const list = await api()
      .get('/conversions')
      .set(...bearer(tokenB));
    expect(list.body.data).toEqual([]);
    expect(list.body.total).toBe(0);

    const converted = await api()
      .post('/convert')
      .set(...bearer(tokenB))
      .attach('file', Buffer.from('beta'), 'c.txt');
    expect(converted.status).toBe(200);
    expect(converted.body.credits_remaining).toBe(9);
    const a = await gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceA } });
    expect(a.creditBalance).toBe(8);
    const listedA = await api()
      .get('/conversions')
      .set(...bearer(tokenA));
    expect(listedA.body.data.map((c: { id: string }) => c.id).sort()).toEqual([syncId, asyncId].sort());
  });

  it('When a token is revoked through the CLI, then it answers 401', async () => {
    expect(await admin('token', 'revoke', '--token', tokenA2)).toEqual({ revoked: true });
    const res = await api()
      .get('/conversions')
      .set(...bearer(tokenA2));
    expect(res.status).toBe(401);
  });

  it('When the whole flow ran with trace logging, then no log line holds a token or the webhook secret', async () => {
    // The dispatcher has signed and tried the webhook (the receiver address refuses), so signing ran too.
    await eventually(async () => ((await gateway.db.webhookAttempt.count()) > 0 ? true : undefined));
    await eventually(async () => (logLines.some((l) => l.includes('webhook attempt')) ? true : undefined));
    const logs = logLines.join('') + adminStderr.join('');
    expect(logLines.some((l) => l.includes('conversion accepted'))).toBe(true);
    for (const secret of [tokenA, tokenA2, tokenB, SECRET]) expect(logs).not.toContain(secret);
  });

  it('When any response is sent, then it carries the security headers and a CSP that loads nothing', async () => {
    for (const res of [
      await request(`http://127.0.0.1:${gateway.port}`).get('/healthz'),
      await api().get('/conversions'),
    ]) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
