/**
 * What this converter already holds of the split conversions it works on (issue 22): the upload
 * bytes of a conversion it split, and the readings of the ranges it converted. Its range jobs
 * take them from here instead of reading them back from PostgreSQL: with one converter, both
 * ranges of a 400-page PDF run here, and their two 825 KB upload reads and the merge's read of
 * the other range's text were on the critical path. PostgreSQL stays the record (every range is
 * still stored, and what is not held here is read from it), so losing this costs time, never data.
 */
export class SplitsInHand {
  private readonly held = new Map<string, { bytes?: Buffer; parts: Map<number, unknown> }>();
  private heldBytes = 0;

  /**
   * @param maxConversions conversions held at once; the oldest is let go (its ranges may be running elsewhere).
   * @param maxUploadBytes upload bytes held at once, beside the slots' byte budget; a larger upload is not held.
   */
  constructor(
    private readonly maxConversions: number,
    private readonly maxUploadBytes: number,
  ) {}

  /** The upload of a conversion this converter has split, for its range jobs. */
  keepUpload(conversionId: string, bytes: Buffer): void {
    const entry = this.entry(conversionId);
    if (entry.bytes || this.heldBytes + bytes.length > this.maxUploadBytes) return;
    entry.bytes = bytes;
    this.heldBytes += bytes.length;
  }

  upload(conversionId: string): Buffer | undefined {
    return this.held.get(conversionId)?.bytes;
  }

  /** A range's reading as this converter kept it (what it stored as JSON). */
  keepPart(conversionId: string, firstPage: number, reading: unknown): void {
    this.entry(conversionId).parts.set(firstPage, reading);
  }

  /** The ranges held, by first page. */
  parts(conversionId: string): ReadonlyMap<number, unknown> {
    return this.held.get(conversionId)?.parts ?? new Map();
  }

  /** The conversion is written, failed or cancelled: nothing of it is needed any more. */
  drop(conversionId: string): void {
    const entry = this.held.get(conversionId);
    if (!entry) return;
    this.heldBytes -= entry.bytes?.length ?? 0;
    this.held.delete(conversionId);
  }

  private entry(conversionId: string) {
    let entry = this.held.get(conversionId);
    if (!entry) {
      // Maps iterate in insertion order: the first key is the oldest conversion.
      while (this.held.size >= this.maxConversions) this.drop(this.held.keys().next().value!);
      this.held.set(conversionId, (entry = { parts: new Map() }));
    }
    return entry;
  }
}
