import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type Db = InstanceType<typeof PrismaClient>;

/** A Prisma client over node-postgres (Prisma 7's driver adapter: no native query engine). */
export function createDb(databaseUrl: string, poolSize = 10): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}
