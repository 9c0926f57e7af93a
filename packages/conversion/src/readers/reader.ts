import type { Block } from '../document/model';
import type { ConvertOptions, DocumentMetadata } from '../types';

/** What a reader returns (pandoc's Reader): the document as data; only the writers turn it into text. */
export interface ReadResult {
  blocks: Block[];
  metadata: DocumentMetadata;
  /**
   * The file's pages that were read, ascending (after `page_range`), where the format has pages:
   * every one gets an entry in E1's `pages`, an empty one too. Absent: the pages the blocks name, or page 1.
   */
  pages?: number[];
  /** Sizes of pages whose blocks carry `bbox` (PDF points or image pixels), for E4's `document.pages`. */
  pageSizes?: Array<{ number: number; width: number; height: number }>;
}

/** One reader per format family; `formats/table.ts` says which extensions and bytes go to it. */
export interface Reader {
  /** Short name for logs, e.g. "pdf" or "spreadsheet". */
  readonly name: string;
  read(input: Buffer, options: ConvertOptions): Promise<ReadResult>;
}
