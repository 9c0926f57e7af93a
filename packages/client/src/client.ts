import { setTimeout as sleep } from 'node:timers/promises';
import { version } from '../package.json';
import { ConversionTimeoutError, errorFromResponse, MarkwrightConnectionError } from './errors';
import type { FileInput } from './file-input';
import type {
  ConversionDetail,
  ConversionListItem,
  ConversionPage,
  ConversionStatus,
  FailedConversion,
  FinishedConversion,
  QueuedConversion,
  SyncConversionResult,
  WebhookRedeliveryAccepted,
} from './types';

export interface MarkwrightClientOptions {
  /** The API's base address, version included, e.g. `https://markwright.example.com/api/v1`. */
  baseUrl: string;
  /** A workspace token (`mwk_…`). */
  token: string;
  /** Wait and resend when the API answers 429 (default true). */
  retryOn429?: boolean;
  /** How many times one request is resent after a 429 before RateLimitError is thrown (default 3). */
  maxRetries?: number;
  /** A fetch implementation (default: Node's global fetch). */
  fetch?: typeof fetch;
}

/** Options of POST /convert. A `webhookUrl` makes it asynchronous (202); without one the Markdown comes back. */
export interface ConvertOptions {
  /**
   * An https URL the service downloads instead of an upload (pass `null` as the file): public
   * addresses only, within the plan's size limit. A failed download throws ValidationError on `file_url`.
   */
  fileUrl?: string;
  /** HTTPS URL that receives the result; selects asynchronous mode. */
  webhookUrl?: string;
  /** 32 to 255 characters; deliveries are then signed (check them with verifyWebhook). */
  webhookSecret?: string;
  useEnhancedAi?: boolean;
  optimizeTokens?: boolean;
  includeMetadata?: boolean;
  /**
   * Sent as Idempotency-Key (1–255 printable ASCII characters): resending the same file and
   * options with the same key within 24 h returns the first answer and charges nothing more, so a
   * retry after a network error is safe. Reusing it for another request throws ValidationError;
   * while the first request still runs, ConflictError (code idempotency_conflict, retryAfterSeconds).
   */
  idempotencyKey?: string;
  /** E1: add `pages`, the Markdown of each page, slide or sheet. */
  includePages?: boolean;
  /** E2: read only these pages, e.g. "1-3,7" (PDF, presentations, spreadsheets). */
  pageRange?: string;
  /** E3: add `chunks` of at most this many o200k tokens (64 to 8192). */
  chunkMaxTokens?: number;
  /** E4: add `document`, the document model as JSON. */
  includeDocument?: boolean;
  signal?: AbortSignal;
}

export interface ListConversionsOptions {
  status?: ConversionStatus;
  /** Page size, 1 to 100 (the API's default is 20). */
  perPage?: number;
  /** First page to read (default 1). */
  page?: number;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Give up after this long with ConversionTimeoutError (default 5 minutes). */
  timeoutMs?: number;
  /** First pause between two polls (default 500 ms); it doubles after each poll... */
  initialDelayMs?: number;
  /** ...up to this (default 10 s). */
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/** The conversions of the workspace, newest first: `for await` gives items; `pages()` gives whole pages. */
export interface ConversionList extends AsyncIterable<ConversionListItem> {
  pages(): AsyncIterableIterator<ConversionPage>;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_WAIT_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_INITIAL_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 10_000;
/** Pause before resending a 429 answered without a usable Retry-After, doubled per retry. */
const FALLBACK_RETRY_MS = 1_000;
const USER_AGENT = `markwright-client/${version}`;

interface RequestInit {
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  body?: FormData;
  signal?: AbortSignal;
}

/** A typed client of the Markwright API (Node 20+, built on fetch). */
export class MarkwrightClient {
  private readonly baseUrl: string;
  private readonly token: string;
  private readonly retryOn429: boolean;
  private readonly maxRetries: number;
  private readonly fetch: typeof fetch;

  constructor(options: MarkwrightClientOptions) {
    if (!options.baseUrl) throw new TypeError('MarkwrightClient: baseUrl is required');
    if (!options.token) throw new TypeError('MarkwrightClient: token is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.retryOn429 = options.retryOn429 ?? true;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** POST /convert with a webhook URL: queued, answered 202. `file` is null when `fileUrl` is given. */
  convert(file: FileInput | null, options: ConvertOptions & { webhookUrl: string }): Promise<QueuedConversion>;
  /** POST /convert without a webhook URL: the Markdown in the answer. */
  convert(file: FileInput | null, options?: ConvertOptions & { webhookUrl?: undefined }): Promise<SyncConversionResult>;
  convert(file: FileInput | null, options?: ConvertOptions): Promise<QueuedConversion | SyncConversionResult>;
  convert(file: FileInput | null, options: ConvertOptions = {}): Promise<QueuedConversion | SyncConversionResult> {
    const form = new FormData();
    const fields: Array<[string, string | number | boolean | undefined]> = [
      ['file_url', options.fileUrl],
      ['webhook_url', options.webhookUrl],
      ['webhook_secret', options.webhookSecret],
      ['use_enhanced_ai', options.useEnhancedAi],
      ['optimize_tokens', options.optimizeTokens],
      ['include_metadata', options.includeMetadata],
      ['include_pages', options.includePages],
      ['page_range', options.pageRange],
      ['chunk_max_tokens', options.chunkMaxTokens],
      ['include_document', options.includeDocument],
    ];
    for (const [name, value] of fields) if (value !== undefined) form.append(name, String(value));
    if (file) form.append('file', toBlob(file.data), file.filename);
    const headers = options.idempotencyKey === undefined ? undefined : { 'Idempotency-Key': options.idempotencyKey };
    return this.request('POST', '/convert', { body: form, headers, signal: options.signal });
  }

  /**
   * POST /conversions/{id}/cancel: a pending or processing conversion fails with "Cancelled by
   * request." and is refunded; returns it. Already completed or failed: ConflictError (not_cancellable).
   */
  cancel(id: string, options: { signal?: AbortSignal } = {}): Promise<FailedConversion> {
    return this.request('POST', `/conversions/${encodeURIComponent(id)}/cancel`, options);
  }

  /**
   * DELETE /conversions/{id}: removes a finished conversion and its result for good (the credit
   * ledger keeps its rows). Still pending or processing: ConflictError (not_finished).
   */
  async delete(id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.request('DELETE', `/conversions/${encodeURIComponent(id)}`, options);
  }

  /** GET /conversions/{id}; narrow on `status` to reach markdown, error or started_at. */
  getConversion(id: string, options: { signal?: AbortSignal } = {}): Promise<ConversionDetail> {
    return this.request('GET', `/conversions/${encodeURIComponent(id)}`, options);
  }

  /**
   * POST /conversions/{id}/webhook/redeliver: sends a finished async conversion's webhook again
   * (a new series of up to 3 attempts, the same webhook-id). A conversion still running throws
   * MarkwrightError with code `not_finished`; one without a webhook URL, code `no_webhook`.
   */
  redeliverWebhook(id: string, options: { signal?: AbortSignal } = {}): Promise<WebhookRedeliveryAccepted> {
    return this.request('POST', `/conversions/${encodeURIComponent(id)}/webhook/redeliver`, options);
  }

  /** GET /conversions page after page (page numbers, while the API reports a next page). */
  listConversions(options: ListConversionsOptions = {}): ConversionList {
    const readPage = (page: number) =>
      this.request<ConversionPage>('GET', '/conversions', {
        query: { status: options.status, per_page: options.perPage, page },
        signal: options.signal,
      });
    async function* pages(): AsyncIterableIterator<ConversionPage> {
      let page = options.page ?? 1;
      for (;;) {
        const current = await readPage(page);
        yield current;
        if (current.next_page_url === null || current.data.length === 0) return;
        page = current.current_page + 1;
      }
    }
    return {
      pages,
      async *[Symbol.asyncIterator]() {
        for await (const page of pages()) yield* page.data;
      },
    };
  }

  /**
   * Polls GET /conversions/{id} until the conversion is completed or failed (a failed conversion
   * is returned, not thrown), pausing initialDelayMs, then twice as long each time up to maxDelayMs;
   * throws ConversionTimeoutError when timeoutMs passes first.
   */
  async waitForConversion(id: string, options: WaitOptions = {}): Promise<FinishedConversion> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    const deadline = Date.now() + timeoutMs;
    let delay = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
    for (;;) {
      const conversion = await this.getConversion(id, { signal: options.signal });
      if (conversion.status === 'completed' || conversion.status === 'failed') return conversion;
      const left = deadline - Date.now();
      if (left <= 0) throw new ConversionTimeoutError(id, conversion.status, timeoutMs);
      await sleep(Math.min(delay, left), undefined, { signal: options.signal });
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }

  private async request<T>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    const url = this.url(path, init.query);
    for (let retry = 0; ; retry++) {
      let response: Response;
      try {
        response = await this.fetch(url, {
          method,
          headers: {
            ...init.headers,
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            'User-Agent': USER_AGENT,
          },
          body: init.body,
          signal: init.signal,
        });
      } catch (err) {
        if (init.signal?.aborted) throw err;
        throw new MarkwrightConnectionError(url, err);
      }
      const retryAfter = response.headers.get('retry-after');
      if (response.status === 429 && this.retryOn429 && retry < this.maxRetries) {
        await response.body?.cancel();
        await sleep(retryAfterMs(retryAfter) ?? FALLBACK_RETRY_MS * 2 ** retry, undefined, { signal: init.signal });
        continue;
      }
      const body = await readBody(response);
      if (!response.ok) throw errorFromResponse(response.status, body, retryAfterSeconds(retryAfter));
      return body as T;
    }
  }

  private url(path: string, query: RequestInit['query'] = {}): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }
}

function toBlob(data: FileInput['data']): Blob {
  return data instanceof Blob ? data : new Blob([data]);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function retryAfterSeconds(header: string | null): number | undefined {
  const ms = retryAfterMs(header);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}
