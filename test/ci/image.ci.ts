import crypto from 'node:crypto';
import { FORMATS } from '@markwright/conversion';
import { dropTestResources, eventually, TEST_AMQP_URL, testDatabaseUrl } from '@markwright/test-support';
import { makeSamples, PHRASE } from '../../packages/conversion/test/samples';
import { freePort } from '../faults/infra';
import { ciScript, podman, podmanStatus } from './podman';

/**
 * The real image in CI (`.ci/run`): deploy/Dockerfile built with podman on the stand-in base
 * (scripts/ci/build-image.sh), then run as production runs it, against this machine's PostgreSQL
 * and RabbitMQ through the host network, on a database and queue prefix of its own: migrations,
 * the three services with their HEALTHCHECK, one conversion per converter family through the API,
 * the admin CLI inside the container, and nothing of the build or the tests left in the image.
 */
const TAG = 'localhost/markwright:ci';
const id = crypto.randomBytes(4).toString('hex');
const databaseName = `mw_ci_image_${id}`;
const prefix = `mwci.${id}`;
const containers: string[] = [];
const env = {
  DATABASE_URL: testDatabaseUrl(databaseName),
  AMQP_URL: TEST_AMQP_URL,
  QUEUE_PREFIX: prefix,
  LOG_LEVEL: 'warn',
};
let ports: { gateway: number; converter: number; dispatcher: number };
let buildOutput = '';

const envArgs = (extra: Record<string, string> = {}) =>
  Object.entries({ ...env, ...extra }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
/** A one-off command in the image, as `docker run --rm` would run it. */
const once = (command: string[], timeoutMs = 120_000) =>
  podmanStatus(['run', '--rm', '--network', 'host', ...envArgs(), TAG, ...command], timeoutMs);

async function startService(name: 'gateway' | 'converter' | 'dispatcher', portVariable: string): Promise<void> {
  const container = `mw-ci-${id}-${name}`;
  containers.push(container);
  await podman([
    'run',
    '-d',
    '--name',
    container,
    '--network',
    'host',
    ...envArgs({ [portVariable]: String(ports[name]) }),
    TAG,
    'node',
    `services/${name}/dist/main.js`,
  ]);
}

beforeAll(async () => {
  // MARKWRIGHT_CI_REUSE_IMAGE=1 smoke-tests the image already built (when iterating on this file).
  if (process.env.MARKWRIGHT_CI_REUSE_IMAGE !== '1') buildOutput = await ciScript('build-image.sh', [TAG], 1_500_000);
  ports = { gateway: await freePort(), converter: await freePort(), dispatcher: await freePort() };
}, 1_560_000);

afterAll(async () => {
  for (const c of containers) {
    const logs = await podmanStatus(['logs', '--tail', '20', c]);
    if (logs.output.trim()) process.stdout.write(`--- ${c} (last lines)\n${logs.output}\n`);
    await podmanStatus(['rm', '-f', '-t', '5', c]);
  }
  await dropTestResources(databaseName, prefix).catch(() => undefined);
}, 120_000);

describe('the image, built and run', () => {
  it('When the image is built, then its size is reported and its HEALTHCHECK survived (Docker format)', async () => {
    const inspected = await podman(['image', 'inspect', '--format', 'size={{.Size}}', TAG]);
    const size = Number(/size=(\d+)/.exec(inspected.stdout)?.[1] ?? NaN);
    process.stdout.write(`${buildOutput.trim()}\nImage ${TAG}: ${(size / 1e6).toFixed(0)} MB\n`);
    const health = (await podman(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', TAG])).stdout;
    expect(JSON.parse(health).Test).toEqual(['CMD', 'node', 'deploy/healthcheck.js']);
  });

  it('When the migrations run in the image, then they create the database and exit 0', async () => {
    const res = await once(['node', 'packages/db/dist/migrate.js']);
    expect(res).toEqual({ code: 0, output: expect.any(String) });
  });

  it('When the three services run from the image, then each one HEALTHCHECK is green', async () => {
    await startService('gateway', 'PORT');
    await startService('converter', 'HEALTH_PORT');
    await startService('dispatcher', 'HEALTH_PORT');
    for (const name of ['gateway', 'converter', 'dispatcher'] as const) {
      const container = `mw-ci-${id}-${name}`;
      const result = await eventually(
        async () => {
          const r = await podmanStatus(['healthcheck', 'run', container], 30_000);
          return r.code === 0 ? r : undefined;
        },
        120_000,
        1000,
      ).catch(async () => podmanStatus(['healthcheck', 'run', container]));
      expect({ name, code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({
        name,
        code: 0,
        output: '',
      });
    }
  }, 300_000);

  let token = '';
  it('When the admin CLI runs inside the container, then it creates a workspace and prints its token', async () => {
    const res = await once([
      'node',
      'services/gateway/dist/admin.js',
      'workspace',
      'create',
      '--name',
      'ci',
      '--plan',
      'business',
      '--credits',
      '1000',
    ]);
    expect({ code: res.code, output: res.code === 0 ? '' : res.output }).toEqual({ code: 0, output: '' });
    // podman's own warnings share the output: the CLI's answer is the JSON line.
    const line = res.output.split('\n').find((l) => l.startsWith('{"workspace_id"'));
    token = (JSON.parse(line ?? '{}') as { token?: string }).token ?? '';
    expect(token).toMatch(/^mwk_/);
  });

  it('When one document of each converter family is converted through the API, then each answers 200 with its text', async () => {
    const samples = await makeSamples();
    const results: Array<{ ext: string; status: number; hasText: boolean }> = [];
    for (const { extensions } of FORMATS) {
      const ext = extensions.find((e: string) => samples[e]) ?? extensions[0]!;
      const form = new FormData();
      form.append('file', new Blob([samples[ext]!]), `sample.${ext}`);
      const res = await fetch(`http://127.0.0.1:${ports.gateway}/api/v1/convert`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { markdown?: string };
      results.push({
        ext,
        status: res.status,
        hasText: (body.markdown ?? '').toLowerCase().includes(PHRASE.toLowerCase()),
      });
    }
    expect(results).toEqual(results.map((r) => ({ ext: r.ext, status: 200, hasText: true })));
  }, 600_000);

  it('When the API reference page loads its bundle, then the image serves it (the pruned dependencies were not needed)', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.gateway}/docs/scalar.js`);
    expect(res.status).toBe(200);
  });

  it('When the image is searched, then no build or test tool is in it (typescript, @types, test-support, jest, esbuild, tsx, swc, pnpm, compilers)', async () => {
    const script = [
      'cd /app',
      'ls -d node_modules/.pnpm/typescript@* node_modules/.pnpm/@types+* node_modules/.pnpm/jest@* node_modules/.pnpm/esbuild@* node_modules/.pnpm/tsx@* node_modules/.pnpm/@swc+core* packages/test-support packages/*/test services/*/test 2>/dev/null',
      'for t in gcc g++ make python3 pnpm tsc; do command -v $t; done',
      'ls /var/cache/apt/archives/*.deb 2>/dev/null',
      'true',
    ].join('; ');
    const res = await podman(['run', '--rm', '--entrypoint', 'sh', TAG, '-c', script]);
    expect(res.stdout.trim().split('\n').filter(Boolean)).toEqual([]);
  });
});
