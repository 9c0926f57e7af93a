import type { Db } from '@markwright/db';
import type { Logger } from '@markwright/config';
import { claimStalePending, deleteOrphanUploads } from '../data-access/conversion-repository';
import type { AcceptDeps } from './accept-conversion';

const SWEEP_BATCH = 100;
/** Far longer than storing an upload and charging for it can take. */
const ORPHAN_UPLOAD_AFTER_MS = 10 * 60_000;

export interface RepublishDeps {
  db: Db;
  publisher: AcceptDeps['publisher'];
  logger: Logger;
  republishAfterMs: number;
}

/**
 * The database row is the source of truth: conversions still pending after `republishAfterMs`
 * (publish failed, broker lost the message, gateway died) are published again. SKIP LOCKED
 * lets several gateway replicas sweep without publishing the same row twice in one pass.
 * Returns how many were published again.
 */
export async function republishStalePending(deps: RepublishDeps): Promise<number> {
  const ids = await claimStalePending(deps.db, new Date(Date.now() - deps.republishAfterMs), SWEEP_BATCH);
  for (const conversionId of ids) {
    await deps.publisher.publish(conversionId);
    deps.logger.info({ conversionId }, 'republished stale pending conversion');
  }
  // An upload stored by a gateway that stopped before charging has no conversion: remove it.
  await deleteOrphanUploads(deps.db, new Date(Date.now() - ORPHAN_UPLOAD_AFTER_MS));
  return ids.length;
}
