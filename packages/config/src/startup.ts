import { type Config, ConfigError, loadConfig } from './env';
import { createLogger, type Logger, serviceLogDestination } from './logger';

/** Infrastructure the process could not reach at start-up: one clear line, never a stack trace. */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
}

const HOW_TO_START: Record<string, string> = {
  PostgreSQL:
    'start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` or `docker compose up -d postgres`',
  RabbitMQ: 'start it with `rabbitmq-server -detached` or `docker compose up -d rabbitmq`',
  Redis:
    'start it with `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no` or `docker compose up -d redis`',
};

const HOW_TO_LOG_IN: Record<string, string> = {
  PostgreSQL:
    'let local connections in without a password (`bash scripts/setup-system.sh` adds trust rules for 127.0.0.1 and ::1 to pg_hba.conf) or put the user and password in DATABASE_URL',
  RabbitMQ: 'check the user and password in AMQP_URL (and that the user may use its vhost)',
  Redis: 'put the password in REDIS_URL (redis://:password@host:port)',
};

/** The server answered and refused the credentials (wrong or missing password, unknown role, no pg_hba.conf rule). */
const LOGIN_REFUSED: Record<string, (code: string, message: string) => boolean> = {
  PostgreSQL: (code, message) =>
    code === '28P01' ||
    code === '28000' ||
    /client password must be a string|password authentication failed/.test(message),
  RabbitMQ: (_code, message) => /ACCESS[_-]REFUSED|\b403\b/.test(message),
  Redis: (_code, message) => /NOAUTH|WRONGPASS/.test(message),
};

/** Code and first line of a start-up error, looking through Prisma's wrapper to the driver's own error. */
function describe(cause: unknown): { code: string; reason: string } {
  type Wrapped = {
    code?: unknown;
    message?: unknown;
    cause?: Wrapped;
    meta?: {
      driverAdapterError?: { message?: unknown; cause?: { originalCode?: unknown; originalMessage?: unknown } };
    };
  };
  const err = (cause ?? {}) as Wrapped;
  const driver = err.meta?.driverAdapterError?.cause;
  const firstLine = (text: unknown) =>
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  const reason = firstLine(driver?.originalMessage) || firstLine(err.message) || firstLine(err.cause?.message);
  return {
    code: String(driver?.originalCode ?? err.code ?? err.cause?.code ?? ''),
    reason: cause instanceof Error || driver ? reason : String(cause),
  };
}

export function unreachable(
  what: 'PostgreSQL' | 'RabbitMQ' | 'Redis',
  url: string,
  cause: unknown,
): DependencyUnavailableError {
  const { code, reason } = describe(cause);
  if (LOGIN_REFUSED[what]!(code, reason)) {
    return new DependencyUnavailableError(
      `${what} at ${redactUrl(url)} refused the login (${reason}): ${HOW_TO_LOG_IN[what]}.`,
    );
  }
  return new DependencyUnavailableError(
    `${what} is not reachable at ${redactUrl(url)} (${reason || 'connection failed'}): ${HOW_TO_START[what]}.`,
  );
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

/** Runs a service's main; configuration and reachability problems end it with one line and exit 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof DependencyUnavailableError) {
      process.stderr.write(`${err.message}\n`);
    } else {
      process.stderr.write(`Fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exit(1);
  });
}

/**
 * A service's stop: every step runs, in order, even when one before it fails, so one failed step
 * cannot leave a broker connection or a database pool open behind it (in a test run, an AMQP
 * connection left open fails its heartbeats during the suites that run next in that worker). The
 * first failure is thrown once every step has run.
 */
export async function stopInOrder(steps: ReadonlyArray<() => unknown>): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/**
 * The main of a long-running service: validated config, a logger, start, and a clean stop on
 * SIGTERM / Ctrl-C (work in flight finishes first).
 */
export function runService(
  name: string,
  start: (config: Config, logger: Logger) => Promise<{ stop(): Promise<void> }>,
): void {
  runMain(async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.LOG_LEVEL, serviceLogDestination());
    const service = await start(config, logger);
    const shutdown = (signal: string): void => {
      logger.info({ signal }, 'stopping');
      service.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });
}
