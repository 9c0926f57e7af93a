import { type Config, createLogger } from '@markwright/config';
import { createDb, type Db, migrate } from '@markwright/db';
import type { JobControlDeps } from './domain/job-control';

export interface AdminContext {
  db: Db;
  /** The job-control use cases as the CLI runs them: no broker, no metrics, no log lines on stdout. */
  jobControl: JobControlDeps;
  close(): Promise<void>;
}

/** The admin command line's wiring: a migrated database with a small pool, and nothing else. */
export async function openAdminContext(config: Config): Promise<AdminContext> {
  await migrate(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, 2);
  return {
    db,
    jobControl: {
      db,
      logger: createLogger('admin', 'silent'),
      cancellations: {
        announceCancelled: () => Promise.reject(new Error('the admin command line does not cancel')),
      },
      jobControl: { cancelled: () => undefined, deleted: () => undefined },
      credits: { charged: () => undefined, refunded: () => undefined },
    },
    close: () => db.$disconnect(),
  };
}
