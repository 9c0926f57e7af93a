import pino, { type Logger } from 'pino';

export type { Logger };

/** A service's log lines are written to stdout together once this many characters wait... */
export const SERVICE_LOG_BATCH_CHARS = 4096;
/** ...and at least this often, so a quiet service's lines still show within a second. */
export const SERVICE_LOG_FLUSH_MS = 500;

/**
 * Where a long-running service logs: stdout, with lines gathered into one write of up to 4 KB
 * (at least every 500 ms, and at exit, including process.exit after a fatal error). Under load a
 * sync conversion logs three lines; each written alone cost a write(2) of its own, 8-11% of the
 * gateway's and the converter's busy samples. What a kill -9 or an OOM kill loses: up to 500 ms of
 * lines.
 */
export function serviceLogDestination(): pino.DestinationStream {
  return pino.destination({
    dest: process.stdout.fd || 1,
    sync: false,
    minLength: SERVICE_LOG_BATCH_CHARS,
    periodicFlush: SERVICE_LOG_FLUSH_MS,
  });
}

/** Structured logs, one line per event (to stdout unless a destination is given). Authorization headers and secrets are redacted by path. */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'token',
        'webhookSecret',
        'webhook_secret',
        'secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
