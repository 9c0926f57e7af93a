import type { Db } from './client';
import { namedStatement } from './named-statement';

/** One page range of a split conversion (issue 22): `[firstPage, lastPage]`, 1-based, inclusive. */
export interface PartRange {
  firstPage: number;
  lastPage: number;
}

/**
 * The plan is written once, in one statement: the first range goes in first and the others only
 * when it did. A second planner (a redelivered or re-swept job) waits on the first one's row until
 * that commits, then inserts nothing: ranges planned for another number of slots never overlap.
 */
const insertParts = namedStatement<{ conversionId: string; firsts: number[]; lasts: number[] }, never>(
  'mw_plan_parts',
  `WITH first AS (
     INSERT INTO conversion_parts (conversion_id, first_page, last_page)
     SELECT :conversionId::uuid, (:firsts::int[])[1], (:lasts::int[])[1]
     ON CONFLICT (conversion_id, first_page) DO NOTHING
     RETURNING conversion_id)
   INSERT INTO conversion_parts (conversion_id, first_page, last_page)
   SELECT first.conversion_id, r.f, r.l
   FROM first, unnest((:firsts::int[])[2:], (:lasts::int[])[2:]) AS r(f, l)`,
  ['conversionId', 'firsts', 'lasts'],
);

/**
 * Records a conversion's ranges, once: a redelivered or re-swept job keeps the ranges planned
 * first, whatever it would plan now. Returns the ranges not read yet, to publish.
 */
export async function planParts(db: Db, conversionId: string, ranges: PartRange[]): Promise<PartRange[]> {
  if (ranges.length === 0) return [];
  await insertParts(db, {
    conversionId,
    firsts: ranges.map((r) => r.firstPage),
    lasts: ranges.map((r) => r.lastPage),
  });
  return db.$queryRaw<PartRange[]>`
    SELECT first_page AS "firstPage", last_page AS "lastPage" FROM conversion_parts
    WHERE conversion_id = ${conversionId}::uuid AND read IS NULL ORDER BY first_page`;
}

/**
 * Keeps what was read of one range (`read` gives its reading as JSON text, written as it is)
 * unless it is the last one unread: then nothing is written, and its converter merges it from memory with
 * the others (`last`). The conversion's row is locked first, so two ranges finishing at once are
 * counted one after the other and exactly one of them is last (each statement of a READ COMMITTED
 * transaction reads what committed before it began). A converter that dies before the merge is
 * stored leaves the last range unread, so its job, redelivered, reads it again. `live` is false
 * when the conversion finished meanwhile (cancelled, failed): the range is dropped.
 */
export async function storePart(
  db: Db,
  conversionId: string,
  firstPage: number,
  read: () => string,
): Promise<{ live: boolean; last: boolean }> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM conversions WHERE id = ${conversionId}::uuid AND status = 'processing' FOR UPDATE`;
    if (locked.length === 0) return { live: false, last: false };
    const [row] = await tx.$queryRaw<Array<{ others: number }>>`
      SELECT count(*)::int AS others FROM conversion_parts
      WHERE conversion_id = ${conversionId}::uuid AND read IS NULL AND first_page <> ${firstPage}`;
    if (row!.others === 0) return { live: true, last: true };
    await tx.$executeRaw`
      UPDATE conversion_parts SET read = ${read()}
      WHERE conversion_id = ${conversionId}::uuid AND first_page = ${firstPage}`;
    return { live: true, last: false };
  });
}

const selectParts = namedStatement<
  { conversionId: string; inHand: number[] },
  { firstPage: number; read: string | null }
>(
  'mw_read_parts',
  `SELECT first_page AS "firstPage", CASE WHEN first_page = ANY(:inHand::int[]) THEN NULL ELSE read END AS read
   FROM conversion_parts WHERE conversion_id = :conversionId::uuid ORDER BY first_page`,
  ['conversionId', 'inHand'],
);

/**
 * What was read of each range, as JSON text, in page order, to be written as one document; a
 * range not stored (the last one, merged from memory) has none, nor do the ranges whose first
 * pages are `inHand` (the merging converter holds their readings already: not sent twice).
 */
export async function readParts(
  db: Db,
  conversionId: string,
  inHand: number[] = [],
): Promise<Array<{ firstPage: number; read: string | null }>> {
  return selectParts(db, { conversionId, inHand });
}

/** Drops the ranges once the conversion is written or has failed: they hold the document's text. */
export async function deleteParts(db: Db, conversionId: string): Promise<void> {
  await db.conversionPart.deleteMany({ where: { conversionId } });
}
