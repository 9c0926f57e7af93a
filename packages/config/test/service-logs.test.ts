import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * A service's log lines are gathered into few writes (serviceLogDestination), but none waits
 * long and none is lost at exit: a line logged while the service is quiet shows (every 500 ms),
 * and lines logged just before process.exit (what runMain does after a fatal error) are written.
 */
const SCRIPT = `
  const { createLogger, serviceLogDestination } = require(${JSON.stringify(path.join(__dirname, '../src/logger'))});
  const logger = createLogger('probe', 'info', serviceLogDestination());
  logger.info('quiet line');
  process.stdin.on('data', (d) => {
    for (let i = 0; i < 3; i++) logger.info({ i }, 'last words');
    process.exit(Number(String(d).trim()));
  });
`;

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, out: () => out, exited };
}

const messages = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('service logs', () => {
  it('When a service logs one line and then nothing, then the line reaches stdout without waiting for more lines or for exit', async () => {
    const probe = start();
    try {
      const deadline = Date.now() + 5_000;
      while (!probe.out().includes('quiet line') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(messages(probe.out())).toEqual(['quiet line']);
    } finally {
      probe.child.stdin.write('0\n');
      await probe.exited;
    }
  });

  it('When a service exits (also with a failure code) right after logging, then every line is written', async () => {
    const probe = start();
    await new Promise((r) => setTimeout(r, 1_500));
    probe.child.stdin.write('1\n');
    expect(await probe.exited).toBe(1);
    expect(messages(probe.out())).toEqual(['quiet line', 'last words', 'last words', 'last words']);
  });
});
