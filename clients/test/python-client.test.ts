import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@markwright/test-support';
import { startStack, type Stack } from '../../services/gateway/test/stack';
import { startDispatcher, type DispatcherService } from '../../services/dispatcher/src/dispatcher-service';
import { makeCertificate } from '../../services/dispatcher/test/receiver';

/*
 * The Python client's own tests (python3 -m unittest, clients/python/tests) against the real
 * service: gateway, converter and dispatcher in this process, a second gateway without a
 * converter (its conversions stay pending, for cancel/delete), and workspaces whose tokens the
 * tests read from the environment.
 */

const PACKAGE_DIR = path.resolve(__dirname, '../python');
const PYTHON = process.env.PYTHON ?? 'python3';
const UNITTEST_DEADLINE_MS = 600_000;
const INSTALL_DEADLINE_MS = 120_000;
const cert = makeCertificate();
const keyFile = path.join(os.tmpdir(), `mw-py-key-${process.pid}.pem`);
let stack: Stack;
let idle: Stack;
let dispatcher: DispatcherService | undefined;

beforeAll(async () => {
  fs.writeFileSync(keyFile, cert.key, { mode: 0o600 });
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ALLOW_PRIVATE_NETWORKS: 'true' };
  stack = await startStack({ env });
  idle = await startStack({ converter: false, env });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
}, 120_000);
afterAll(async () => {
  await dispatcher?.stop();
  await idle?.stop();
  await stack?.stop();
  fs.rmSync(keyFile, { force: true });
  cert.cleanup();
});

/** Runs python3 without blocking this process's event loop, which serves the API the tests call. */
function python(args: string[], env: Record<string, string>, timeoutMs: number) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(PYTHON, args, { cwd: PACKAGE_DIR, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it(
  'When python3 -m unittest runs the Python client’s tests against the real service, then all pass',
  async () => {
    // One after another: each is a transaction, and the test database's pool is small.
    const main = await stack.workspace('business', 1000);
    const broke = await stack.workspace('business', 0);
    const free = await stack.workspace('free', 100);
    const other = await stack.workspace('business', 10);
    const idleWorkspace = await idle.workspace('business', 10);
    const { code, output } = await python(
      ['-m', 'unittest', 'discover', '-v', '-s', 'tests', '-t', '.'],
      {
        PYTHONPATH: path.join(PACKAGE_DIR, 'src'),
        PYTHONDONTWRITEBYTECODE: '1',
        MARKWRIGHT_BASE_URL: stack.gateway.url,
        MARKWRIGHT_TOKEN: main.token,
        MARKWRIGHT_TOKEN_BROKE: broke.token,
        MARKWRIGHT_TOKEN_FREE: free.token,
        MARKWRIGHT_TOKEN_OTHER: other.token,
        MARKWRIGHT_IDLE_BASE_URL: idle.gateway.url,
        MARKWRIGHT_IDLE_TOKEN: idleWorkspace.token,
        MARKWRIGHT_TEST_CERT: cert.certFile,
        MARKWRIGHT_TEST_KEY: keyFile,
      },
      UNITTEST_DEADLINE_MS,
    );
    // The whole unittest report is the failure message, so a red run says which test and why.
    expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/\nOK( \(skipped=\d+\))?\n*$/) });
    // Tests of extensions the server does not have yet say so; list them in the jest output.
    const skipped = output.split('\n').filter((line) => / \.\.\. skipped /.test(line));
    if (skipped.length > 0) console.info(`Python client tests skipped:\n${skipped.join('\n')}`);
  },
  UNITTEST_DEADLINE_MS + 10_000,
);

it(
  'When the package is installed with pip, offline, then it imports from the installed copy',
  async () => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-pip-'));
    try {
      const install = await python(
        [
          '-m',
          'pip',
          'install',
          '--no-index',
          '--no-cache-dir',
          '--disable-pip-version-check',
          '--target',
          target,
          '.',
        ],
        {},
        INSTALL_DEADLINE_MS,
      );
      expect(install).toEqual({ code: 0, output: expect.stringContaining('Successfully installed markwright-') });
      const probe = await python(
        [
          '-I',
          '-c',
          'import sys; sys.path.insert(0, sys.argv[1]); import markwright; print(markwright.__file__, markwright.MarkwrightClient.__name__)',
          target,
        ],
        {},
        INSTALL_DEADLINE_MS,
      );
      expect(probe).toEqual({
        code: 0,
        output: `${path.join(target, 'markwright', '__init__.py')} MarkwrightClient\n`,
      });
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  },
  INSTALL_DEADLINE_MS * 2,
);
