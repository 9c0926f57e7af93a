import { ciScript } from './podman';

/**
 * The README's two commands on a bare Debian 12 machine booted with systemd (scripts/ci/bare-machine.sh):
 * setup, `pnpm start` and the README's first conversion, then setup again and `pnpm test`.
 */
interface BareRun {
  setup: number;
  firstConversion: { status?: number; body?: unknown; error?: string } | null;
  tests: { passed: number; failed: number; exit: number };
  seconds: number;
}

let run: BareRun;

beforeAll(async () => {
  const output = await ciScript('bare-machine.sh', [], 1_700_000);
  run = JSON.parse(output.trim().split('\n').at(-1)!) as BareRun;
  process.stdout.write(`Bare machine: ${JSON.stringify(run)}\n`);
}, 1_750_000);

describe('the README on a bare Debian machine with systemd', () => {
  it('When setup runs on the bare machine, then it installs and starts everything and exits 0', () => {
    expect(run.setup).toBe(0);
  });

  it('When pnpm start runs there, then the first conversion answers exactly as the README says', () => {
    expect(run.firstConversion).toEqual({
      status: 200,
      body: {
        success: true,
        markdown: '# Hello\n\nSome *text*.\n',
        credits_used: 1,
        credits_remaining: 99,
        metadata: { title: 'Hello', author: '', page_count: 1 },
      },
    });
  });

  it('When pnpm test runs there, then every test passes and jest exits on its own', () => {
    expect(run.tests.failed).toBe(0);
    expect(run.tests.passed).toBeGreaterThan(0);
    expect(run.tests.exit).toBe(0);
  });
});
