import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.join(__dirname, '..', '..');

/** podman with CI's private configuration (scripts/ci/podman-env.sh: runc, ulimits, no /etc). */
export async function podman(args: string[], timeoutMs = 120_000): Promise<{ stdout: string; stderr: string }> {
  return run('bash', ['-c', 'source scripts/ci/podman-env.sh && exec podman "$@"', 'podman', ...args], {
    cwd: ROOT,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The exit code of a podman command (0 = success), its output kept for the failure message. */
export async function podmanStatus(args: string[], timeoutMs = 120_000): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await podman(args, timeoutMs);
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Runs a CI script under scripts/ci, returning its output; throws with the output on failure. */
export async function ciScript(name: string, args: string[], timeoutMs: number): Promise<string> {
  const { stdout, stderr } = await run('bash', [path.join(ROOT, 'scripts', 'ci', name), ...args], {
    cwd: ROOT,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout + stderr;
}
