import type { Block } from '../document/model';
import type { ConvertOptions, DocumentMetadata } from '../types';

/** What a reader returns (pandoc's Reader): the document as data; only the writers turn it into text. */
export interface ReadResult {
  blocks: Block[];
  metadata: DocumentMetadata;
}

/** One reader per format family; `formats/table.ts` says which extensions and bytes go to it. */
export interface Reader {
  /** Short name for logs, e.g. "pdf" or "spreadsheet". */
  readonly name: string;
  read(input: Buffer, options: ConvertOptions): Promise<ReadResult>;
}
