import { z } from 'zod';

/**
 * Structure for retrieval (extensions.md E1–E4): the shapes of `pages`, `chunks` and `document`,
 * and the `page_range` grammar. Shared by the conversion library (which produces them), the
 * gateway (which validates the fields and serves them), the dispatcher (webhook) and the clients.
 */

/** The largest page number `page_range` accepts (E2). */
export const PAGE_RANGE_MAX_PAGE = 100000;
/** `chunk_max_tokens` bounds (E3). */
export const CHUNK_MAX_TOKENS_MIN = 64;
export const CHUNK_MAX_TOKENS_MAX = 8192;

/** Selected pages: ascending, non-overlapping inclusive spans, 1-based. `[[1, 3], [7, 7]]` for "1-3,7". */
export type PageRange = ReadonlyArray<readonly [number, number]>;

/**
 * Parses `page_range` (E2): "N", "N-M" or a comma-separated list of those, 1-based, ascending,
 * not overlapping, numbers ≤ 100000. Returns the spans, or null when the text breaks the grammar.
 */
export function parsePageRange(text: string): PageRange | null {
  const parts = text.trim().split(',');
  const spans: Array<readonly [number, number]> = [];
  for (const part of parts) {
    const m = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from || to > PAGE_RANGE_MAX_PAGE) return null;
    const previous = spans[spans.length - 1];
    if (previous && from <= previous[1]) return null;
    spans.push([from, to]);
  }
  return spans.length ? spans : null;
}

/** Whether page `n` (1-based) is selected; every page is when there is no range. */
export function pageSelected(range: PageRange | undefined, n: number): boolean {
  return !range || range.some(([from, to]) => n >= from && n <= to);
}

/** The selected pages that exist in a file of `pageCount` pages, ascending (E2: a range past the end selects what exists). */
export function selectedPages(range: PageRange | undefined, pageCount: number): number[] {
  const pages: number[] = [];
  for (let n = 1; n <= pageCount; n++) if (pageSelected(range, n)) pages.push(n);
  return pages;
}

/** `page_range` as written back (canonical form): "1-3,7". */
export function formatPageRange(range: PageRange): string {
  return range.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(',');
}

export const pageSchema = z
  .object({
    number: z
      .int()
      .min(1)
      .meta({ description: "The page's number in the file (1-based), also when page_range selects pages" }),
    markdown: z.string().meta({ description: 'The Markdown of this page, "" for an empty page' }),
  })
  .meta({ id: 'Page', description: 'One page (PDF page, slide, sheet, spine document, or page-break section)' });
export type Page = z.infer<typeof pageSchema>;

export const chunkSchema = z
  .object({
    index: z.int().min(0),
    markdown: z.string(),
    tokens: z.int().min(0).meta({ description: "o200k_base token count of the chunk's markdown, ≤ chunk_max_tokens" }),
    pages: z.array(z.int().min(1)).meta({ description: 'Ascending page numbers the chunk comes from' }),
    headings: z
      .array(z.string())
      .meta({ description: "Texts of the headings enclosing the chunk's start, outermost first" }),
  })
  .meta({ id: 'Chunk', description: 'A token-bounded piece of the Markdown (E3)' });
export type Chunk = z.infer<typeof chunkSchema>;

// ---- The document model as data (E4) ----

const bboxSchema = z
  .tuple([z.number(), z.number(), z.number(), z.number()])
  .meta({ description: "[x0, y0, x1, y1] in the page's space (PDF points or image pixels), origin top-left" });

export type DocInline =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'emphasis' | 'strike' | 'superscript' | 'subscript'; children: DocInline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: DocInline[] }
  | { type: 'image'; alt: string }
  | { type: 'note_ref'; id: string }
  | { type: 'math'; tex: string; display?: boolean }
  | { type: 'break' };

export const docInlineSchema: z.ZodType<DocInline> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({
        type: z.enum(['strong', 'emphasis', 'strike', 'superscript', 'subscript']),
        children: z.array(docInlineSchema),
      }),
      z.object({ type: z.literal('code'), text: z.string() }),
      z.object({ type: z.literal('link'), href: z.string(), children: z.array(docInlineSchema) }),
      z.object({ type: z.literal('image'), alt: z.string() }),
      z.object({ type: z.literal('note_ref'), id: z.string() }),
      z.object({ type: z.literal('math'), tex: z.string(), display: z.boolean().optional() }),
      z.object({ type: z.literal('break') }),
    ]),
  )
  .meta({ id: 'DocInline', description: 'Inline content of the document model' }) as z.ZodType<DocInline>;

interface Placed {
  page?: number;
  bbox?: [number, number, number, number];
}
export interface DocListItem {
  content: DocInline[];
  checked?: boolean;
  blocks?: DocBlock[];
}
export interface DocTableCell {
  content: DocInline[];
  colspan?: number;
  rowspan?: number;
}
export type DocBlock = Placed &
  (
    | { type: 'heading'; level: number; content: DocInline[] }
    | { type: 'paragraph'; content: DocInline[] }
    | { type: 'list'; ordered: boolean; start?: number; items: DocListItem[] }
    | { type: 'table'; header_rows: number; rows: DocTableCell[][] }
    | { type: 'code'; text: string; language?: string }
    | { type: 'quote'; blocks: DocBlock[] }
    | { type: 'rule' }
    | { type: 'image'; alt: string }
    | { type: 'notes'; notes: Array<{ id: string; blocks: DocBlock[] }> }
    | { type: 'markdown'; markdown: string }
  );

const placed = { page: z.int().min(1).optional(), bbox: bboxSchema.optional() };
const inlines = () => z.array(docInlineSchema);

export const docBlockSchema: z.ZodType<DocBlock> = z
  .lazy(() =>
    z.discriminatedUnion('type', [
      z.object({ ...placed, type: z.literal('heading'), level: z.int().min(1).max(6), content: inlines() }),
      z.object({ ...placed, type: z.literal('paragraph'), content: inlines() }),
      z.object({
        ...placed,
        type: z.literal('list'),
        ordered: z.boolean(),
        start: z.int().optional(),
        items: z.array(
          z.object({ content: inlines(), checked: z.boolean().optional(), blocks: z.array(docBlockSchema).optional() }),
        ),
      }),
      z.object({
        ...placed,
        type: z.literal('table'),
        header_rows: z.int().min(0),
        rows: z.array(
          z.array(
            z.object({ content: inlines(), colspan: z.int().min(1).optional(), rowspan: z.int().min(1).optional() }),
          ),
        ),
      }),
      z.object({ ...placed, type: z.literal('code'), text: z.string(), language: z.string().optional() }),
      z.object({ ...placed, type: z.literal('quote'), blocks: z.array(docBlockSchema) }),
      z.object({ ...placed, type: z.literal('rule') }),
      z.object({ ...placed, type: z.literal('image'), alt: z.string() }),
      z.object({
        ...placed,
        type: z.literal('notes'),
        notes: z.array(z.object({ id: z.string(), blocks: z.array(docBlockSchema) })),
      }),
      z
        .object({ ...placed, type: z.literal('markdown'), markdown: z.string() })
        .meta({ description: 'Content the model cannot see into (front matter, a model pass answer), as Markdown' }),
    ]),
  )
  .meta({ id: 'DocBlock', description: 'A block of the document model' }) as z.ZodType<DocBlock>;

export const documentSchema = z
  .object({
    version: z.literal(1),
    blocks: z.array(docBlockSchema),
    pages: z
      .array(z.object({ number: z.int().min(1), width: z.number(), height: z.number() }))
      .optional()
      .meta({ description: 'Size of each page whose blocks carry bbox (PDF pages, OCR images)' }),
  })
  .meta({ id: 'Document', description: 'The document model the Markdown is written from (E4)' });
export type DocumentData = z.infer<typeof documentSchema>;

/** What a conversion returns besides markdown when E1/E3/E4 were asked for. */
export interface StructureOutput {
  pages?: Page[];
  chunks?: Chunk[];
  document?: DocumentData;
}

/** The options E1–E4 add to a conversion. */
export interface StructureOptions {
  includePages?: boolean;
  pageRange?: PageRange;
  chunkMaxTokens?: number;
  includeDocument?: boolean;
}
