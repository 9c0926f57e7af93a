/*
 * The API's bodies exactly as they travel (snake_case), from the contract's tables. Keeping the
 * wire names means a response, a webhook payload and the API reference all read the same.
 */

export type ConversionStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** Present only when `include_metadata` was true for the conversion. */
export interface ConversionMetadata {
  title: string;
  author: string;
  page_count: number;
}

/** Present only when `optimize_tokens` was true. */
export interface TokenOptimization {
  original_tokens: number;
  optimized_tokens: number;
  reduction_percent: number;
}

/** E1: one page (PDF page, slide, sheet, e-book spine document or page-break section). */
export interface Page {
  /** The page's number in the file (1-based), also when `page_range` selects pages. */
  number: number;
  /** "" for an empty page. */
  markdown: string;
}

/** E3: a piece of the Markdown of at most `chunk_max_tokens` o200k_base tokens. */
export interface Chunk {
  index: number;
  markdown: string;
  tokens: number;
  /** Ascending page numbers the chunk comes from. */
  pages: number[];
  /** The enclosing headings' texts at the chunk's start, outermost first. */
  headings: string[];
}

/** E4: inline content of the document model. */
export type DocInline =
  | { type: 'text'; text: string }
  | { type: 'strong' | 'emphasis' | 'strike' | 'superscript' | 'subscript'; children: DocInline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: DocInline[] }
  | { type: 'image'; alt: string }
  | { type: 'note_ref'; id: string }
  | { type: 'math'; tex: string; display?: boolean }
  | { type: 'break' };

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

/** E4: a block of the document model; `page` where the format has pages, `bbox` for PDF pages and OCR'd images. */
export type DocBlock = {
  page?: number;
  /** [x0, y0, x1, y1] in the page's space (PDF points or image pixels), origin top-left. */
  bbox?: [number, number, number, number];
} & (
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

/** E4: the document model the Markdown is written from. */
export interface DocumentData {
  version: 1;
  blocks: DocBlock[];
  /** Size of each page whose blocks carry bbox. */
  pages?: Array<{ number: number; width: number; height: number }>;
}

/** 200 of POST /convert (no webhook URL): the Markdown in the response. */
export interface SyncConversionResult {
  success: true;
  markdown: string;
  credits_used: number;
  credits_remaining: number;
  metadata?: ConversionMetadata;
  token_optimization?: TokenOptimization;
  /** Only with `includePages`. */
  pages?: Page[];
  /** Only with `chunkMaxTokens`. */
  chunks?: Chunk[];
  /** Only with `includeDocument`. */
  document?: DocumentData;
}

/** 202 of POST /convert (with a webhook URL): queued; poll `status_url` or wait for the webhook. */
export interface QueuedConversion {
  id: string;
  status: 'pending';
  message: string;
  status_url: string;
  credits_used: number;
  credits_remaining: number;
}

interface ConversionDetailBase {
  id: string;
  original_filename: string;
  created_at: string;
  webhook_delivered: boolean;
  can_retry_webhook: boolean;
}

export interface PendingConversion extends ConversionDetailBase {
  status: 'pending';
}

export interface ProcessingConversion extends ConversionDetailBase {
  status: 'processing';
  started_at: string;
}

export interface CompletedConversion extends ConversionDetailBase {
  status: 'completed';
  markdown: string;
  completed_at: string;
  metadata?: ConversionMetadata;
  pages?: Page[];
  chunks?: Chunk[];
  document?: DocumentData;
}

export interface FailedConversion extends ConversionDetailBase {
  status: 'failed';
  error: string;
  completed_at: string;
}

/** GET /conversions/{id}: the fields present depend on `status` (the contract's presence table). */
export type ConversionDetail = PendingConversion | ProcessingConversion | CompletedConversion | FailedConversion;

/** A conversion that will not change any more. */
export type FinishedConversion = CompletedConversion | FailedConversion;

/** One row of GET /conversions (never carries markdown or metadata). */
export interface ConversionListItem {
  id: string;
  status: ConversionStatus;
  original_filename: string;
  extension: string;
  file_size_bytes: number;
  use_enhanced_ai: boolean;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface PaginatorLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** GET /conversions: one page. */
export interface ConversionPage {
  current_page: number;
  data: ConversionListItem[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PaginatorLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

/** The body POSTed to your webhook URL when an asynchronous conversion finishes. */
export type WebhookPayload =
  | {
      id: string;
      status: 'completed';
      created_at: string;
      markdown: string;
      completed_at: string;
      metadata?: ConversionMetadata;
      pages?: Page[];
      chunks?: Chunk[];
      document?: DocumentData;
    }
  | { id: string; status: 'failed'; created_at: string; error: string; completed_at: string };

/** 202 of POST /conversions/{id}/webhook/redeliver: a new series of up to 3 attempts is under way. */
export interface WebhookRedeliveryAccepted {
  id: string;
  message: string;
  /** Poll it: `webhook_delivered` follows the new series. */
  status_url: string;
}
