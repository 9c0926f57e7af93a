import type { ConvertOptions, DocumentMetadata } from './types';
import type { Block } from './document/model';
import type { PageRange } from '@markwright/contracts/src/structure';
import { userFacingError } from './user-facing-errors';
import { isSupportedExtension, isTextExtension, readerForContent } from './formats/table';
import type { TokenOptimization } from './tokens/count';
import { renderMarkdown } from './writers/markdown';
import { plainMetadataText } from './document/plain-text';
import { readMarkdown } from './readers/shared/markdown/block-tokens';
import type { ModelEndpoint } from './enhanced/model-pass';

export interface ConvertDocumentOptions extends ConvertOptions {
  optimizeTokens?: boolean;
  /** Enhanced mode only: an OpenAI-compatible endpoint for a final repair pass. */
  modelEndpoint?: ModelEndpoint;
  /**
   * Read only: return the document model and metadata, and write nothing (`markdown` is ""). For a
   * page range of a long document split across converters, whose model is written with the other
   * ranges' by `finishDocument` once all are read.
   */
  readOnly?: boolean;
  /** Only these pages are read (E2), for formats with pages. */
  pageRange?: PageRange;
}

export interface ConvertDocumentResult {
  markdown: string;
  metadata: DocumentMetadata;
  tokenOptimization?: TokenOptimization;
  /**
   * The document model `markdown` was written from (after the optimize-tokens filter when asked):
   * for writers of other shapes (pages, chunks, JSON). After the enhanced model pass it is one
   * `raw` block holding the model's answer.
   */
  blocks: Block[];
}

/**
 * One document to Markdown, in this thread: pick the reader by what the bytes are, read, run the
 * filters, write. The one caller of the writers.
 */
export async function convertDocument(
  input: Buffer,
  extension: string,
  options: ConvertDocumentOptions,
): Promise<ConvertDocumentResult> {
  // An empty file of a binary type is a valid, empty document (docs/decisions.md); text types read it themselves.
  if (input.length === 0 && isSupportedExtension(extension) && !isTextExtension(extension)) {
    return { markdown: '', metadata: { title: '', author: '', page_count: 0 }, blocks: [] };
  }
  let read: { blocks: Block[]; metadata: DocumentMetadata };
  try {
    const reader = await readerForContent(input, extension);
    read = await reader.read(input, options);
  } catch (err) {
    throw userFacingError(err, extension);
  }
  if (options.readOnly) return { markdown: '', metadata: normaliseMetadata(read.metadata), blocks: read.blocks };
  return finishDocument(read.blocks, read.metadata, options);
}

/**
 * Everything after reading: the filters and the writers. `convertDocument` ends here, and so does
 * a long document read in page ranges (its ranges' blocks joined in page order).
 */
export async function finishDocument(
  readBlocks: Block[],
  readMetadata: Partial<DocumentMetadata>,
  options: ConvertDocumentOptions,
): Promise<ConvertDocumentResult> {
  const metadata = normaliseMetadata(readMetadata);
  let blocks = readBlocks;
  let markdown = withoutControlCharacters(renderMarkdown(blocks));
  if (options.enhanced && options.modelEndpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
    const { refineWithModel } = require('./enhanced/model-pass') as typeof import('./enhanced/model-pass');
    const refined = await refineWithModel(markdown, options.modelEndpoint);
    if (refined.used) {
      // The model's answer is Markdown from outside: read and written again like a .md file, so it is as safe as any output.
      blocks = readMarkdown(refined.markdown).blocks;
      markdown = withoutControlCharacters(renderMarkdown(blocks));
    }
  }
  if (!options.optimizeTokens) return { markdown, metadata, blocks };
  // The tokenizer's tables are large: loaded only when a conversion asks for optimisation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
  const { tokenOptimization } = require('./tokens/count') as typeof import('./tokens/count');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
  const { optimizeTokens } = require('./filters/optimize-tokens') as typeof import('./filters/optimize-tokens');
  const optimizedBlocks = optimizeTokens(blocks);
  const optimized = withoutControlCharacters(renderMarkdown(optimizedBlocks, { compactTables: true }));
  return {
    markdown: optimized,
    metadata,
    tokenOptimization: tokenOptimization(markdown, optimized),
    blocks: optimizedBlocks,
  };
}

function normaliseMetadata(m: Partial<DocumentMetadata> | undefined): DocumentMetadata {
  return {
    title: typeof m?.title === 'string' ? plainMetadataText(withoutControlCharacters(m.title)) : '',
    author: typeof m?.author === 'string' ? plainMetadataText(withoutControlCharacters(m.author)) : '',
    page_count: Number.isInteger(m?.page_count) && (m?.page_count ?? 0) >= 0 ? (m?.page_count as number) : 0,
  };
}

/** NUL and other C0 controls (tab and line breaks kept): no reader of Markdown wants them, and PostgreSQL cannot store NUL. */
function withoutControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
