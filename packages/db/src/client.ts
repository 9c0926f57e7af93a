import { unreachable } from '@markwright/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type Db = InstanceType<typeof PrismaClient>;

/** A Prisma client over node-postgres (Prisma 7's driver adapter: no native query engine). */
export function createDb(databaseUrl: string, poolSize = 10): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}

/** Creates the client and proves PostgreSQL answers; an unreachable server is one clear line. */
export async function connectDb(databaseUrl: string, poolSize = 10): Promise<Db> {
  const db = createDb(databaseUrl, poolSize);
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (err) {
    await db.$disconnect().catch(() => undefined);
    throw unreachable('PostgreSQL', databaseUrl, err);
  }
  return db;
}
