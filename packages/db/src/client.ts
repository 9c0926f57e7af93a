import { unreachable } from '@markwright/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

export type Db = InstanceType<typeof PrismaClient>;

/** Told about a dropped PostgreSQL connection (the pool replaces it; the caller only logs). */
export type ConnectionErrorListener = (err: Error) => void;

/**
 * A Prisma client over node-postgres (Prisma 7's driver adapter: no native query engine).
 * Every pooled connection carries an `error` listener for its whole life: a connection the
 * server terminates ("terminating connection due to administrator command", a restart, a
 * failover) can emit `error` while checked out with no listener of the pool's or Prisma's
 * attached, and an unheard `error` event ends the Node process. The pool drops the dead
 * connection and opens a new one for the next query.
 */
export function createDb(databaseUrl: string, poolSize = 10, onConnectionError?: ConnectionErrorListener): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const report = (err: Error): void => onConnectionError?.(err);
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, onPoolError: report, onConnectionError: report });
  return new PrismaClient({ adapter });
}

/** Creates the client and proves PostgreSQL answers; an unreachable server is one clear line. */
export async function connectDb(
  databaseUrl: string,
  poolSize = 10,
  onConnectionError?: ConnectionErrorListener,
): Promise<Db> {
  const db = createDb(databaseUrl, poolSize, onConnectionError);
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (err) {
    await db.$disconnect().catch(() => undefined);
    throw unreachable('PostgreSQL', databaseUrl, err);
  }
  return db;
}
