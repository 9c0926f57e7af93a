import path from 'node:path';
import { Client } from 'pg';
import Postgrator from 'postgrator';
import { unreachable } from '@markwright/config';

const MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');

/** Creates the database named in the URL when it does not exist (connects to `postgres` to do so). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (err) {
    throw unreachable('PostgreSQL', databaseUrl, err);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
        // Created concurrently by another process: "already exists", or the catalog's unique index.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/** Key of the session lock that serialises migrators of one database (advisory locks are per database). */
const MIGRATION_LOCK_KEY = 0x6d770001;

/**
 * Applies the committed SQL migrations in order (postgrator keeps the version table). Every pod
 * migrates before it starts, so several may run at once: a session advisory lock makes them take
 * turns, and the later ones find nothing left to apply.
 */
export async function migrate(databaseUrl: string): Promise<{ applied: string[] }> {
  await ensureDatabase(databaseUrl);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const postgrator = new Postgrator({
      migrationPattern: path.join(MIGRATIONS_DIR, '*'),
      driver: 'pg',
      database: new URL(databaseUrl).pathname.slice(1),
      schemaTable: 'schema_migrations',
      execQuery: (query) => client.query(query),
    });
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await postgrator.migrate();
    return { applied: applied.map((m) => m.filename) };
  } finally {
    await client.end();
  }
}
