import pRetry, { AbortError } from 'p-retry';

/**
 * What a dropped or restarting PostgreSQL looks like from Prisma over node-postgres: SQLSTATE
 * class 08 (connection exception) or 57P01-57P03 (terminated by an administrator, crash,
 * starting up), a socket refused or reset, or a pooled connection that died under us.
 */
const CONNECTION_LOSS =
  /\b(08\d{3}|57P0[1-3])\b|ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated|not queryable|Can't reach database|closed the connection|the database system is (starting up|shutting down)/i;

export function isConnectionLoss(err: unknown): boolean {
  return err instanceof Error && CONNECTION_LOSS.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
}

/** About 20 s of backoff: long enough for a PostgreSQL restart, short enough to give a message back to the broker. */
const RECONNECT_RETRIES = { retries: 8, minTimeout: 200, factor: 2, maxTimeout: 5_000 };

/**
 * Runs an idempotent database write again after a lost connection (the pool reconnects);
 * any other error is thrown at once. For writes whose loss would leave the world disagreeing
 * with the rows: a webhook the receiver acknowledged, a conversion result, a refund.
 */
export async function retryOnConnectionLoss<T>(
  write: () => Promise<T>,
  onRetry?: (err: Error, attempt: number) => void,
): Promise<T> {
  return pRetry(
    async () => {
      try {
        return await write();
      } catch (err) {
        if (!isConnectionLoss(err)) throw new AbortError(err as Error);
        throw err;
      }
    },
    { ...RECONNECT_RETRIES, onFailedAttempt: (e) => onRetry?.(e, e.attemptNumber) },
  );
}
