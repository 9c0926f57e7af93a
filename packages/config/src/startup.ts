import { type Config, ConfigError, loadConfig } from './env';
import { createLogger, type Logger } from './logger';

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

export function unreachable(
  what: 'PostgreSQL' | 'RabbitMQ' | 'Redis',
  url: string,
  cause: unknown,
): DependencyUnavailableError {
  const reason = cause instanceof Error ? (cause.message.split('\n')[0] ?? '') : String(cause);
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
 * The main of a long-running service: validated config, a logger, start, and a clean stop on
 * SIGTERM / Ctrl-C (work in flight finishes first).
 */
export function runService(
  name: string,
  start: (config: Config, logger: Logger) => Promise<{ stop(): Promise<void> }>,
): void {
  runMain(async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.LOG_LEVEL);
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
