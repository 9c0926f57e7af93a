import { z } from 'zod';

/**
 * Structure for retrieval (extensions.md E1–E4): the shapes of `pages`, `chunks` and `document`,
 * and the `page_range` grammar. Shared by the conversion library (which produces them), the
 * gateway (which validates the fields and serves them), the dispatcher (webhook) and the clients.
 */

export {
  CHUNK_MAX_TOKENS_MAX,
  CHUNK_MAX_TOKENS_MIN,
  formatPageRange,
  PAGE_RANGE_MAX_PAGE,
  type PageRange,
  pageSelected,
  parsePageRange,
  selectedPages,
} from './page-range';
import type { PageRange } from './page-range';

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
