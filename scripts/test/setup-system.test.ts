import { execFile, execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.join(__dirname, '..', 'setup-system.sh');

/** A local port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** setup-system.sh in dry-run: what it would install and start, nothing done. */
async function plan(env: Record<string, string>, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await run('bash', [SCRIPT, '--dry-run', ...args], {
    env: { PATH: process.env.PATH!, ...env },
  });
  return stdout + stderr;
}

const RUNNING = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/markwright',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('scripts/setup-system.sh: PostgreSQL, RabbitMQ and Redis', () => {
  it('When all three answer on their configured addresses, then setup plans nothing for them', async () => {
    const output = await plan(RUNNING);
    expect(output).not.toMatch(/answers|Would start|postgresql|rabbitmq-server|redis-server/);
  });

  it('When none answers on its local address, then setup says so and would install if missing and start each there', async () => {
    const [pg, amqp, redis] = [await closedPort(), await closedPort(), await closedPort()];
    const output = await plan({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${pg}/markwright`,
      AMQP_URL: `amqp://guest:guest@localhost:${amqp}`,
      REDIS_URL: `redis://127.0.0.1:${redis}`,
    });
    expect(output.split('\n').filter((l) => /answers|Would start/.test(l))).toEqual([
      `No PostgreSQL answers on 127.0.0.1:${pg}: setup will install postgresql if missing and start it.`,
      `No RabbitMQ answers on localhost:${amqp}: setup will install rabbitmq-server if missing and start it.`,
      `No Redis answers on 127.0.0.1:${redis}: setup will install redis-server if missing and start it.`,
      `Would start PostgreSQL on 127.0.0.1:${pg}`,
      `Would start RabbitMQ on localhost:${amqp}`,
      `Would start Redis on 127.0.0.1:${redis}`,
    ]);
  });

  it('When the one that does not answer is on another machine, then setup says to start it there and starts nothing', async () => {
    const output = await plan({ ...RUNNING, REDIS_URL: 'redis://cache.invalid:6379' });
    expect(output.trim().split('\n')).toEqual([
      'No Redis answers on cache.invalid:6379; it is not this machine, so start it there.',
    ]);
  });

  it('When only the runtime packages are asked for (the image), then the infrastructure is not looked at', async () => {
    const output = await plan(
      { DATABASE_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/x` },
      '--runtime-only',
    );
    expect(output).not.toMatch(/PostgreSQL|Would start/);
  });

  it('When the local PostgreSQL answers but refuses the login of DATABASE_URL (whoever started it), then setup would trust local connections in its cluster pg_hba.conf', async () => {
    const cluster = clusterOn(5432);
    const output = await plan({ ...RUNNING, DATABASE_URL: 'postgresql://no_such_role@127.0.0.1:5432/markwright' });
    expect(output.trim().split('\n')).toEqual([
      `Would let local TCP connections into PostgreSQL without a password (/etc/postgresql/${cluster}/main/pg_hba.conf)`,
    ]);
  });

  it('When DATABASE_URL names a local port no cluster listens on, then setup would move the cluster to that port', async () => {
    const cluster = clusterOn(5432);
    const port = await closedPort();
    const output = await plan({ ...RUNNING, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/markwright` });
    expect(output.split('\n').filter((l) => /PostgreSQL/.test(l))).toEqual([
      `No PostgreSQL answers on 127.0.0.1:${port}: setup will install postgresql if missing and start it.`,
      `Would start PostgreSQL on 127.0.0.1:${port}`,
      `Would move PostgreSQL ${cluster}/main to port ${port} (pg_conftool set port)`,
    ]);
  });
});

/** The version of this machine's Debian PostgreSQL cluster `main` on `port` (the shared one the tests use). */
function clusterOn(port: number): string {
  const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1] === 'main' && f[2] === String(port));
  if (!line) throw new Error(`no Debian cluster main on port ${port}`);
  return line[0]!;
}
