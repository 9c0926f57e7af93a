import pino, { type Logger } from 'pino';

export type { Logger };

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
