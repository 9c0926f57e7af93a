import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../../services/gateway/test/stack';

/*
 * The published shape: build with the package's own script, then load dist/ the way an
 * integrator does (import and require by package name, through the `exports` map) and talk to
 * the real gateway; type-check an ESM and a CJS consumer against the emitted declarations.
 */

const run = promisify(execFile);
const packageDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(packageDir, '../..');
const BUILD_DEADLINE_MS = 240_000;
const TSC_DEADLINE_MS = 180_000;
let stack: Stack;
let token: string;

beforeAll(async () => {
  await run('pnpm', ['--filter', '@markwright/client', 'build'], { cwd: repoRoot, timeout: BUILD_DEADLINE_MS });
  stack = await startStack();
  ({ token } = await stack.workspace('business', 10));
}, BUILD_DEADLINE_MS + 60_000);
afterAll(() => stack?.stop());

const MISSING = '0192f2a0-0000-7000-8000-000000000000';
const SIGNED = "require('node:crypto').createHmac('sha256', 's').update('{}').digest('hex')";

const ESM = `
import { MarkwrightClient, MarkwrightError, NotFoundError, verifyWebhook } from '@markwright/client';
import { createRequire } from 'node:module';
const client = new MarkwrightClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
const result = await client.convert({ data: Buffer.from('# From ESM\\n'), filename: 'esm.md' });
const missing = await client.getConversion('${MISSING}').catch((e) => e);
const require = createRequire(import.meta.url);
console.log(JSON.stringify({
  resolved: import.meta.resolve('@markwright/client'),
  markdown: result.markdown,
  notFound: missing instanceof NotFoundError && missing instanceof MarkwrightError && missing.status,
  verified: verifyWebhook('{}', ${SIGNED}, 's'),
}));
`;

const CJS = `
const { MarkwrightClient, MarkwrightError, NotFoundError, verifyWebhook } = require('@markwright/client');
(async () => {
  const client = new MarkwrightClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
  const result = await client.convert({ data: Buffer.from('# From CJS\\n'), filename: 'cjs.md' });
  const missing = await client.getConversion('${MISSING}').catch((e) => e);
  console.log(JSON.stringify({
    resolved: require.resolve('@markwright/client'),
    markdown: result.markdown,
    notFound: missing instanceof NotFoundError && missing instanceof MarkwrightError && missing.status,
    verified: verifyWebhook('{}', ${SIGNED}, 's'),
  }));
})();
`;

async function runNode(args: string[]) {
  const { stdout } = await run(process.execPath, args, {
    cwd: packageDir,
    env: { ...process.env, BASE_URL: stack.gateway.url, TOKEN: token },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('@markwright/client as published', () => {
  it('When imported as ESM by package name, then dist/index.js loads and converts against the real gateway', async () => {
    expect(await runNode(['--input-type=module', '-e', ESM])).toEqual({
      resolved: `file://${packageDir}/dist/index.js`,
      markdown: '# From ESM\n',
      notFound: 404,
      verified: true,
    });
  });

  it('When required as CommonJS by package name, then dist/index.cjs loads and converts against the real gateway', async () => {
    expect(await runNode(['-e', CJS])).toEqual({
      resolved: path.join(packageDir, 'dist/index.cjs'),
      markdown: '# From CJS\n',
      notFound: 404,
      verified: true,
    });
  });

  it(
    'When an ESM and a CJS consumer are type-checked (node16 resolution), then both find the declarations and the convert overloads',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-client-consumer-'));
      try {
        fs.mkdirSync(path.join(dir, 'node_modules/@markwright'), { recursive: true });
        fs.symlinkSync(packageDir, path.join(dir, 'node_modules/@markwright/client'));
        const body = (importLine: string) => `${importLine}
const client = new M.MarkwrightClient({ baseUrl: 'https://x/api/v1', token: 't' });
const file = { data: new Uint8Array([35]), filename: 'a.md' };
export async function both(): Promise<[M.SyncConversionResult, M.QueuedConversion]> {
  return [await client.convert(file), await client.convert(file, { webhookUrl: 'https://x/hook' })];
}
export async function wrong() {
  // @ts-expect-error a 202 acknowledgement has no markdown
  return (await client.convert(file, { webhookUrl: 'https://x/hook' })).markdown;
}
`;
        fs.writeFileSync(path.join(dir, 'esm.mts'), body("import * as M from '@markwright/client';"));
        fs.writeFileSync(path.join(dir, 'cjs.cts'), body("import M = require('@markwright/client');"));
        const tsc = require.resolve('typescript/bin/tsc', { paths: [repoRoot] });
        const args = [
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--module',
          'node16',
          '--moduleResolution',
          'node16',
          '--target',
          'es2022',
        ];
        const types = ['--types', 'node', '--typeRoots', path.join(repoRoot, 'node_modules/@types')];
        const result = await run(process.execPath, [tsc, ...args, ...types, 'esm.mts', 'cjs.cts'], { cwd: dir }).then(
          () => 'ok',
          (err: { stdout: string }) => err.stdout,
        );
        expect(result).toBe('ok');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    TSC_DEADLINE_MS,
  );

  it('When packed, then the tarball holds dist, the README, the LICENSE and package.json, and no sources or tests', async () => {
    const { stdout } = await run('pnpm', ['pack', '--dry-run', '--json'], { cwd: packageDir });
    const files = (JSON.parse(stdout) as { files: Array<{ path: string }> }).files.map((f) => f.path).sort();
    expect(files).toEqual([
      'LICENSE',
      'README.md',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'package.json',
    ]);
    const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, Record<string, string>>>;
    };
    for (const condition of Object.values(manifest.exports['.']!)) {
      for (const target of Object.values(condition)) expect(fs.existsSync(path.join(packageDir, target))).toBe(true);
    }
  });
});
