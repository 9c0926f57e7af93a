import type { Chunk } from '@markwright/contracts/src/structure';

/**
 * Where each chunk of a list stands in the document's Markdown it was cut from: `head` (a
 * continuation chunk's repeated table header, or ''), then `length` characters of `document` from
 * `at`; undefined for a chunk that is not such a stretch.
 */
export interface ChunkPlaces {
  document: string;
  places: Array<{ at: number; length: number; head: string } | undefined>;
}

/**
 * The chunk writer's places of the chunks it cut (writers/chunks.ts), by their list, for the
 * worker's transfer (isolation/structure-transfer.ts), which otherwise finds each chunk again by
 * comparing it with the document. Held weakly: the places live as long as the list.
 */
const recorded = new WeakMap<Chunk[], ChunkPlaces>();

export function recordChunkPlaces(chunks: Chunk[], places: ChunkPlaces): void {
  recorded.set(chunks, places);
}

/** The places recorded for `chunks` when they were cut. */
export function chunkPlaces(chunks: Chunk[]): ChunkPlaces | undefined {
  return recorded.get(chunks);
}
