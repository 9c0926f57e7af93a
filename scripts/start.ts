import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, runMain } from '@markwright/config';
import { migrate } from '@markwright/db';

/**
 * `pnpm start` (after `scripts/build.js --if-stale`): migrations, then the built gateway, converter
 * and dispatcher as plain node child processes; Ctrl-C stops all.
 */
const SERVICES = ['gateway', 'converter', 'dispatcher'] as const;
const STOP_GRACE_MS = 30_000;

runMain(async () => {
  const config = loadConfig();
  const { applied } = await migrate(config.DATABASE_URL);
  process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date.\n');
  const root = path.join(__dirname, '..');
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  for (const [index, name] of SERVICES.entries()) {
    const entry = path.join(root, 'services', name, 'dist', 'main.js');
    if (!fs.existsSync(entry)) continue;
    const env = { ...process.env };
    if (name !== 'gateway' && !env.HEALTH_PORT) env.HEALTH_PORT = String(config.PORT + index);
    const child = spawn(process.execPath, [entry], { env, stdio: 'inherit' });
    children.set(name, child);
    child.on('exit', (code, signal) => {
      children.delete(name);
      if (!stopping) {
        process.stderr.write(`${name} exited (${signal ?? code}); stopping the others.\n`);
        stopAll(1);
      } else if (children.size === 0) process.exit(process.exitCode ?? 0);
    });
  }
  const stopAll = (code: number): void => {
    if (stopping) return;
    stopping = true;
    process.exitCode = code;
    for (const child of children.values()) child.kill('SIGTERM');
    setTimeout(() => {
      for (const child of children.values()) child.kill('SIGKILL');
      process.exit(code);
    }, STOP_GRACE_MS).unref();
    if (children.size === 0) process.exit(code);
  };
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
});
