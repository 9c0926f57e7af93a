import type { ConvertOptions, DocumentMetadata } from './types';
import type { Block } from './document/model';
import type { ReadResult } from './readers/reader';
import { userFacingError } from './user-facing-errors';
import { isSupportedExtension, isTextExtension, readerForContent } from './formats/table';
import type { TokenOptimization } from './tokens/count';
import { blockAlone, joinBlocks, joinWritten, renderMarkdown, writeBlocks } from './writers/markdown';
import { plainMetadataText } from './document/plain-text';
import { CONTROL_CHARACTER, withoutControlCharacters } from './document/control-characters';
import type { ModelEndpoint } from './enhanced/model-pass';
import type { Chunk, Page, StructureOptions, StructureOutput } from '@markwright/contracts/src/structure';
import { ConversionError } from './types';
import { noPageSelected } from './page-range';
import { acceptsPageRange } from './formats/table';
import { groupByPage, type PageBlocks, writePages } from './writers/pages';
import type { WriterOptions } from './writers/markdown';

// Loaded on the first zip package, as formats/sniff.ts loads the container libraries.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const localHeaders = () => require('./archive/local-headers') as typeof import('./archive/local-headers');

export interface ConvertDocumentOptions extends ConvertOptions, StructureOptions {
  optimizeTokens?: boolean;
  /** Enhanced mode only: an OpenAI-compatible endpoint for a final repair pass. */
  modelEndpoint?: ModelEndpoint;
  /**
   * Read only: return what the reader read (`read`) and write nothing (`markdown` is ""). For a
   * page range of a long document split across converters, whose reading is written with the
   * other ranges' by `finishDocument` once all are read.
   */
  readOnly?: boolean;
  /**
   * Read and write each top-level block, join nothing: return `written` (`markdown` is ""). For a
   * page range of a long document when the Markdown alone is asked for (`writesBlocksAsRead`):
   * the ranges' texts are joined by `joinWrittenParts`, so the writing runs in every range at
   * once and the merge is a join. Other options are as for the whole document.
   */
  writeBlocksOnly?: boolean;
}

/** Each top-level block's Markdown as the writer wrote it, and which blocks are `raw` (by index). */
export interface WrittenBlocks {
  texts: string[];
  raw: number[];
}

export interface ConvertDocumentResult extends StructureOutput {
  markdown: string;
  metadata: DocumentMetadata;
  tokenOptimization?: TokenOptimization;
  /**
   * The document model `markdown` was written from (after the optimize-tokens filter when asked):
   * for writers of other shapes (pages, chunks, JSON). After the enhanced model pass it is one
   * `raw` block holding the model's answer.
   */
  blocks: Block[];
  /** With `readOnly` only: what the reader returned. */
  read?: ReadResult;
  /** With `writeBlocksOnly` only: the blocks as written, not joined. */
  written?: WrittenBlocks;
}

/** A document embedded in the one being read, read by the reader its bytes call for; its own objects are not read. */
async function readEmbedded(bytes: Buffer, extension: string): Promise<Block[]> {
  const reader = await readerForContent(bytes, extension);
  return (await reader.read(bytes, { enhanced: false, embedded: true })).blocks;
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
  if (options.pageRange && !acceptsPageRange(extension)) {
    throw new ConversionError(
      'unsupported_format',
      'page_range applies to PDF files, presentations and spreadsheets only.',
    );
  }
  // Pages or chunks asked for (E1, E3): readers keep every block on one page.
  const structured = !!options.includePages || options.chunkMaxTokens !== undefined;
  const readOptions: ConvertDocumentOptions = structured ? { ...options, pageAnchored: true } : options;
  // An empty file of a binary type is a valid, empty document (docs/decisions.md); text types read it themselves.
  if (input.length === 0 && isSupportedExtension(extension) && !isTextExtension(extension)) {
    if (options.pageRange) throw noPageSelected(0);
    return {
      markdown: '',
      metadata: { title: '', author: '', page_count: 0 },
      blocks: [],
      ...structure(options, [], [], undefined, {}).output,
    };
  }
  let read: ReadResult;
  // A zip package cut short (no central directory) is read from what its local headers hold (docs/decisions.md).
  let whole: Buffer | undefined;
  try {
    if (input[0] === 0x50 && input[1] === 0x4b) whole = localHeaders().zipFromLocalHeaders(input);
    const reader = await readerForContent(whole ?? input, extension);
    read = await reader.read(whole ?? input, { ...readOptions, readEmbedded });
  } catch (err) {
    if (whole && !(err instanceof ConversionError && (err.code === 'too_large' || err.code === 'encrypted_file')))
      throw new ConversionError(
        'corrupt_file',
        `The .${extension.toLowerCase()} file is cut short (its end, with the zip directory, is missing) and the part that remains cannot be read.`,
      );
    throw userFacingError(err, extension);
  }
  if (options.readOnly) return { markdown: '', metadata: normaliseMetadata(read.metadata), blocks: read.blocks, read };
  if (options.writeBlocksOnly) {
    if (!writesBlocksAsRead(options))
      throw new Error('writeBlocksOnly: these options write more than the blocks as read');
    const texts = writeBlocks(read.blocks);
    const raw = read.blocks.flatMap((b, i) => (b.type === 'raw' ? [i] : []));
    return { markdown: '', metadata: normaliseMetadata(read.metadata), blocks: read.blocks, written: { texts, raw } };
  }
  return finishDocument(read, options);
}

/**
 * Whether `finishDocument` writes the blocks as the reader read them and nothing else (no filter,
 * no model pass, no pages, chunks or document): then the document's Markdown is the join of its
 * blocks' texts, and page ranges written apart make it (`joinWrittenParts`).
 */
export function writesBlocksAsRead(options: ConvertDocumentOptions): boolean {
  return (
    !options.optimizeTokens &&
    !(options.enhanced && options.modelEndpoint) &&
    !options.includePages &&
    options.chunkMaxTokens === undefined &&
    !options.includeDocument
  );
}

/**
 * The Markdown of a document read in page ranges with `writeBlocksOnly`, from the ranges' written
 * blocks in page order: what `finishDocument` writes from their readings merged.
 */
export function joinWrittenParts(parts: WrittenBlocks[]): string {
  const texts: string[] = [];
  const raw = new Set<number>();
  for (const part of parts) {
    for (const i of part.raw) raw.add(texts.length + i);
    for (const text of part.texts) texts.push(text);
  }
  return withoutControlCharacters(joinWritten(texts, (i) => raw.has(i)));
}

/**
 * Everything after reading: the filters and the writers. `convertDocument` ends here, and so does
 * a long document read in page ranges (its ranges' readings joined in page order).
 */
export async function finishDocument(
  read: ReadResult,
  options: ConvertDocumentOptions,
): Promise<ConvertDocumentResult> {
  const metadata = normaliseMetadata(read.metadata);
  let blocks = read.blocks;
  // Written when needed: with pages or chunks asked, the Markdown returned is the pages' join instead.
  let written: string | undefined;
  const markdownOf = (): string => (written ??= withoutControlCharacters(renderMarkdown(blocks)));
  if (options.enhanced && options.modelEndpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
    const { refineWithModel } = require('./enhanced/model-pass') as typeof import('./enhanced/model-pass');
    const refined = await refineWithModel(markdownOf(), options.modelEndpoint);
    if (refined.used) {
      // The model's answer is Markdown from outside: read and written again like a .md file, so it is as safe as any output.
      // It is one text for the whole document: its blocks have no page, and lie on the first page (docs/decisions.md).
      // markdown-it and htmlparser2 load only here, not with every worker.
      const { readMarkdown } =
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
        require('./readers/shared/markdown/block-tokens') as typeof import('./readers/shared/markdown/block-tokens');
      blocks = readMarkdown(refined.markdown).blocks;
      written = undefined;
    }
  }
  if (!options.optimizeTokens) {
    const extra = structure(options, blocks, read.pages, read.pageSizes, {});
    return { markdown: extra.markdown ?? markdownOf(), metadata, blocks, ...extra.output };
  }
  // The tokenizer's tables are large: loaded only when a conversion asks for optimisation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
  const { tokenOptimization } = require('./tokens/count') as typeof import('./tokens/count');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, as in formats/table.ts
  const { optimizeTokens } = require('./filters/optimize-tokens') as typeof import('./filters/optimize-tokens');
  const optimizedBlocks = optimizeTokens(blocks);
  const extra = structure(options, optimizedBlocks, read.pages, read.pageSizes, { compactTables: true });
  const optimized =
    extra.markdown ?? withoutControlCharacters(renderMarkdown(optimizedBlocks, { compactTables: true }));
  return {
    markdown: optimized,
    metadata,
    tokenOptimization: tokenOptimization(markdownOf(), optimized),
    blocks: optimizedBlocks,
    ...extra.output,
  };
}

/**
 * E1, E3, E4 from the final model (after the enhanced model pass and the optimize-tokens filter),
 * written with the writer options of the Markdown. With pages or chunks asked for, the Markdown
 * returned is the join of the pages (E1's rule, exact by construction); `markdown` is then set.
 */
function structure(
  options: StructureOptions,
  blocks: Block[],
  pageNumbers: number[] | undefined,
  pageSizes: ReadResult['pageSizes'],
  writer: WriterOptions,
): { output: StructureOutput; markdown?: string } {
  const output: StructureOutput = {};
  let markdown: string | undefined;
  if (options.includePages || options.chunkMaxTokens !== undefined) {
    // Each block is written once; the pages, the chunks and the Markdown are joined from those texts.
    const groups = groupByPage(blocks, writeBlocks(blocks, writer), pageNumbers);
    const written = pagesAndChunks(groups, options.chunkMaxTokens);
    markdown = written.markdown;
    if (options.includePages) output.pages = written.pages;
    if (written.chunks) output.chunks = written.chunks;
  }
  if (options.includeDocument) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use
    const { writeDocument } = require('./writers/json') as typeof import('./writers/json');
    output.document = writeDocument(blocks, pageSizes);
  }
  return { output, markdown };
}

/**
 * E1's pages of the grouped blocks, the document's Markdown (their join), and E3's chunks when
 * `maxTokens` is set, all without control characters.
 */
function pagesAndChunks(
  groups: PageBlocks[],
  maxTokens: number | undefined,
): { pages: Page[]; markdown: string; chunks?: Chunk[] } {
  const chunker =
    maxTokens === undefined
      ? undefined
      : // eslint-disable-next-line @typescript-eslint/no-require-imports -- the tokenizer is loaded on use
        (require('./writers/chunks') as typeof import('./writers/chunks'));
  if (chunker) {
    // Most documents have none: joined untested, the chunk writer's token index tells as it reads
    // the document anyway, which saves a pass over it; when it has some, all is written again below.
    const pages = writePages(groups, joinBlocks);
    const alone = (block: Block, written: string): string => blockAlone(block, written).trim();
    const chunks = chunker.writeChunksWithoutControls(groups, maxTokens!, alone, pages.markdown);
    if (chunks) return { ...pages, chunks };
  }
  let controls = false;
  const join = (list: Block[], written: string[]): string => {
    const text = joinBlocks(list, written);
    if (!CONTROL_CHARACTER.test(text)) return text;
    controls = true;
    return withoutControlCharacters(text);
  };
  const pages = writePages(groups, join);
  if (!chunker) return pages;
  // A block has control characters only if a page has: most documents have none, and skip one pass per block.
  const alone = (block: Block, written: string): string =>
    (controls ? withoutControlCharacters(blockAlone(block, written)) : blockAlone(block, written)).trim();
  return { ...pages, chunks: chunker.writeChunks(groups, maxTokens!, alone, pages.markdown) };
}

function normaliseMetadata(m: Partial<DocumentMetadata> | undefined): DocumentMetadata {
  return {
    title: typeof m?.title === 'string' ? plainMetadataText(withoutControlCharacters(m.title)) : '',
    author: typeof m?.author === 'string' ? plainMetadataText(withoutControlCharacters(m.author)) : '',
    page_count: Number.isInteger(m?.page_count) && (m?.page_count ?? 0) >= 0 ? (m?.page_count as number) : 0,
  };
}
