import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/**
 * Private infrastructure for the fault suite: a PostgreSQL cluster and a RabbitMQ node of its own,
 * on free ports in a temporary directory, so killing or restarting them never touches the
 * shared instances on 5432 / 5672.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const IS_ROOT = process.getuid?.() === 0;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

function pgBin(name: string): string {
  const base = '/usr/lib/postgresql';
  const version = fs.existsSync(base) ? fs.readdirSync(base).sort().pop() : undefined;
  return version ? path.join(base, version, 'bin', name) : name;
}

/** PostgreSQL refuses to run as root: run its tools as the postgres user then. */
function asPostgres(cmd: string, args: string[]): void {
  if (IS_ROOT) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' });
  else execFileSync(cmd, args, { stdio: 'ignore' });
}

export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-faults-pg-'));
    if (IS_ROOT) execFileSync('chown', ['postgres', dir]);
    asPostgres(pgBin('initdb'), ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const pg = new PrivatePostgres(dir, await freePort());
    await pg.up();
    return pg;
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async up(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`;
    asPostgres(pgBin('pg_ctl'), [
      '-D',
      path.join(this.dir, 'data'),
      '-o',
      opts,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      'start',
    ]);
    await waitFor('private PostgreSQL', () => this.query('SELECT 1').then(() => true), 30_000);
  }

  async down(): Promise<void> {
    asPostgres(pgBin('pg_ctl'), ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  /** Terminates every connection to `database` (what an administrator or a failover does). */
  async terminateConnections(database: string): Promise<number> {
    const rows = await this.query(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return (rows[0] as { n: number }).n;
  }

  async query(sql: string, params: unknown[] = [], database = 'postgres'): Promise<unknown[]> {
    const client = new Client({ connectionString: this.url(database) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  async destroy(): Promise<void> {
    await this.down().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A RabbitMQ node of its own: node name, ports, data and logs in a temporary directory, no plugins. */
export class PrivateRabbit {
  private process?: ChildProcess;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly distPort: number,
    private readonly nodeName: string,
  ) {}

  static async start(): Promise<PrivateRabbit> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-faults-rmq-'));
    const port = await freePort();
    const rabbit = new PrivateRabbit(dir, port, await freePort(), `mwfaults${port}@localhost`);
    fs.mkdirSync(path.join(dir, 'mnesia'));
    fs.mkdirSync(path.join(dir, 'log'));
    fs.writeFileSync(path.join(dir, 'enabled_plugins'), '[].\n');
    fs.writeFileSync(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${port}\n`);
    fs.writeFileSync(path.join(dir, 'env.conf'), '');
    await rabbit.up();
    return rabbit;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const d = this.dir;
    // The script under /usr/lib runs the node as the caller (the /usr/sbin wrapper would switch user).
    const server = fs.existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server')
      ? '/usr/lib/rabbitmq/bin/rabbitmq-server'
      : 'rabbitmq-server';
    this.process = spawn(server, [], {
      cwd: d,
      detached: true,
      stdio: ['ignore', fs.openSync(path.join(d, 'out.log'), 'a'), fs.openSync(path.join(d, 'out.log'), 'a')],
      env: {
        ...process.env,
        HOME: d,
        RABBITMQ_NODENAME: this.nodeName,
        RABBITMQ_NODE_PORT: String(this.port),
        RABBITMQ_DIST_PORT: String(this.distPort),
        RABBITMQ_MNESIA_BASE: path.join(d, 'mnesia'),
        RABBITMQ_LOG_BASE: path.join(d, 'log'),
        RABBITMQ_CONFIG_FILE: path.join(d, 'rabbitmq.conf'),
        RABBITMQ_CONF_ENV_FILE: path.join(d, 'env.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: path.join(d, 'enabled_plugins'),
        RABBITMQ_PID_FILE: path.join(d, 'pid'),
        ERL_EPMD_ADDRESS: '127.0.0.1',
      },
    });
    await waitFor('private RabbitMQ', () => portOpen(this.port), 120_000);
  }

  /** Stops the node (SIGTERM to its process group: a clean broker shutdown) and waits for it to exit. */
  async down(): Promise<void> {
    const child = this.process;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
    await waitFor('private RabbitMQ to stop', async () => !(await portOpen(this.port)), 60_000);
    this.process = undefined;
  }

  async destroy(): Promise<void> {
    await this.down().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export type ServiceName = 'gateway' | 'converter' | 'dispatcher';

/** One service as its own OS process, started from source, exactly as `pnpm start` runs it. */
export class ServiceProcess {
  private child?: ChildProcess;
  readonly exits: Array<{ code: number | null; signal: string | null; expected: boolean }> = [];
  private expectExit = false;

  constructor(
    readonly name: ServiceName,
    private readonly env: Record<string, string>,
    readonly healthPort: number,
    private readonly logFile: string,
  ) {}

  async start(): Promise<void> {
    const entry = path.join(ROOT, 'services', this.name, 'src', 'entry-points', 'main.ts');
    const log = fs.openSync(this.logFile, 'a');
    this.expectExit = false;
    // `node --import tsx` keeps it one process, so a kill -9 hits the service itself.
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, NODE_OPTIONS: '' },
      stdio: ['ignore', log, log],
    });
    child.on('exit', (code, signal) => this.exits.push({ code, signal, expected: this.expectExit }));
    this.child = child;
    await waitFor(
      `${this.name} ready`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}`);
        const res = await fetch(`http://127.0.0.1:${this.healthPort}/readyz`);
        return res.status === 200;
      },
      120_000,
    );
  }

  /** kill -9: no shutdown code runs. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.expectExit = true;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectExit = true;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }

  /** Exits nobody asked for (a crash): the fault suite's first promise is that there are none. */
  unexpectedExits(): Array<{ code: number | null; signal: string | null }> {
    return this.exits.filter((e) => !e.expected);
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
}
