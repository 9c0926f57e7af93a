import { unreachable } from '@markwright/config';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

export type Db = InstanceType<typeof PrismaClient>;

/** The node-postgres pool under each client, for the hot statements (see `preparedQuery`). */
const pools = new WeakMap<Db, pg.Pool>();

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
  const db = new PrismaClient({ adapter });
  pools.set(db, pool);
  return db;
}

/**
 * Runs one of the few statements every sync conversion makes (auth, charge, claim, complete) as
 * a named prepared statement on the client's own pool: PostgreSQL parses and plans it once per
 * connection, and it skips Prisma's query layer, which cost about 1.5 ms of wall time per raw
 * query against 0.25 ms this way (docs/performance.md). `name` must be unique per `text`.
 */
export async function preparedQuery<Row>(db: Db, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error('preparedQuery needs a client made by createDb');
  return (await pool.query({ name, text, values })).rows as Row[];
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
