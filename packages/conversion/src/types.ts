import type { PageRange } from '@markwright/contracts/src/structure';
import type { Block } from './document/model';

/** What every reader receives; `Reader` below is the one interface of the conversion library. */
export interface ConvertOptions {
  /**
   * E2 `page_range`: readers of paged formats (PDF, presentations, spreadsheets) read only these
   * pages, slides or sheets; `metadata.page_count` stays the whole file's count.
   */
  pageRange?: PageRange;
  /**
   * Pages or chunks were asked for (E1, E3): a reader that joins a paragraph across a page break
   * (PDF) ends it at the break instead, so every block lies on one page.
   */
  pageAnchored?: boolean;
  /** Enhanced mode: the deeper local pipeline (OCR of embedded images, layout analysis). */
  enhanced: boolean;
  /** Read as an object embedded in another document: its own embedded objects are not read (one level). */
  embedded?: boolean;
  /**
   * Given by convertDocument to the reader of the document itself (never to an embedded one): reads
   * the bytes of a document embedded in it, by what they are (`extension` breaks ties), to its blocks.
   */
  readEmbedded?: (bytes: Buffer, extension: string) => Promise<Block[]>;
  /** Original file name, when known (some formats use it as a fallback title). */
  filename?: string;
  /** Enhanced mode only: an OpenAI-compatible speech-to-text endpoint, tried before the offline engine. */
  transcriptionEndpoint?: TranscriptionEndpoint;
}

/** Metadata as the contract defines it: always all three keys (empty string / 0 when unknown). */
export interface DocumentMetadata {
  title: string;
  author: string;
  page_count: number;
}

export type ConversionErrorCode =
  | 'unsupported_format'
  | 'corrupt_file'
  | 'encrypted_file'
  | 'empty_file'
  | 'too_large'
  | 'timeout'
  | 'out_of_memory'
  | 'not_implemented'
  | 'cancelled'
  /** `page_range` selects no page of the file (E2). */
  | 'no_pages_selected';

/** A conversion that cannot succeed for this input. `message` is shown to the API user as `error`. */
export class ConversionError extends Error {
  constructor(
    readonly code: ConversionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConversionError';
  }
}

export function emptyMetadata(): DocumentMetadata {
  return { title: '', author: '', page_count: 0 };
}

/** An OpenAI-compatible speech-to-text endpoint, for enhanced mode (enhanced/transcription-endpoint.ts calls it). */
export interface TranscriptionEndpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}
