import type { Db } from './client';
import { namedStatement } from './named-statement';
import { storableJson } from './storable-text';

/** One page range of a split conversion (issue 22): `[firstPage, lastPage]`, 1-based, inclusive. */
export interface PartRange {
  firstPage: number;
  lastPage: number;
}

const insertParts = namedStatement<{ conversionId: string; firsts: number[]; lasts: number[] }, never>(
  'mw_plan_parts',
  `INSERT INTO conversion_parts (conversion_id, first_page, last_page)
   SELECT :conversionId::uuid, f, l FROM unnest(:firsts::int[], :lasts::int[]) AS r(f, l)
   ON CONFLICT (conversion_id, first_page) DO NOTHING`,
  ['conversionId', 'firsts', 'lasts'],
);

/**
 * Records a conversion's ranges, once: a redelivered or re-swept job plans the same ranges again
 * and keeps the existing rows. Returns the ranges not read yet, to publish.
 */
export async function planParts(db: Db, conversionId: string, ranges: PartRange[]): Promise<PartRange[]> {
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
 * Keeps what was read of one range and tells how many ranges are still unread. The conversion's
 * row is locked first, so two ranges finishing at once are counted one after the other and exactly
 * one of them sees 0 (each statement of a READ COMMITTED transaction reads what committed before
 * it began). `live` is false when the conversion finished meanwhile (cancelled, failed): the
 * range is dropped.
 */
export async function storePart(
  db: Db,
  conversionId: string,
  firstPage: number,
  read: unknown,
): Promise<{ live: boolean; remaining: number }> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM conversions WHERE id = ${conversionId}::uuid AND status = 'processing' FOR UPDATE`;
    if (locked.length === 0) return { live: false, remaining: 0 };
    await tx.$executeRaw`
      UPDATE conversion_parts SET read = ${JSON.stringify(storableJson(read))}::jsonb
      WHERE conversion_id = ${conversionId}::uuid AND first_page = ${firstPage}`;
    const [row] = await tx.$queryRaw<Array<{ remaining: number }>>`
      SELECT count(*)::int AS remaining FROM conversion_parts
      WHERE conversion_id = ${conversionId}::uuid AND read IS NULL`;
    return { live: true, remaining: row!.remaining };
  });
}

/** What was read of each range, in page order, to be written as one document. */
export async function readParts(db: Db, conversionId: string): Promise<Array<{ firstPage: number; read: unknown }>> {
  return db.conversionPart.findMany({
    where: { conversionId },
    select: { firstPage: true, read: true },
    orderBy: { firstPage: 'asc' },
  });
}

/** Drops the ranges once the conversion is written or has failed: they hold the document's text. */
export async function deleteParts(db: Db, conversionId: string): Promise<void> {
  await db.conversionPart.deleteMany({ where: { conversionId } });
}
