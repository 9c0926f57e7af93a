import { z } from 'zod';
import {
  CHUNK_MAX_TOKENS_MAX,
  CHUNK_MAX_TOKENS_MIN,
  formatPageRange,
  isSupportedExtension,
  PAGE_RANGE_MAX_PAGE,
  parsePageRange,
  SUPPORTED_EXTENSIONS,
} from '@markwright/contracts';
import { PLAN_NAMES, PLANS, type PlanName } from './plans';
import { AppError } from './app-error';
import { validationError } from './validation-errors';

const CHUNK_BOUNDS_MESSAGE = `The chunk max tokens field must be between ${CHUNK_MAX_TOKENS_MIN} and ${CHUNK_MAX_TOKENS_MAX}.`;

export interface UploadedFile {
  originalname: string;
  size: number;
  buffer: Buffer;
  /** Called once the bytes are stored: frees the workspace's upload slot (see UploadSlots). */
  release?: () => void;
}

/** C0, DEL and C1: never part of a real file name, and NUL cannot even be stored by PostgreSQL. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
export const WEBHOOK_URL_MAX = 2048;
export const FILE_URL_MAX = 2048;
export const WEBHOOK_SECRET_MIN = 32;
export const WEBHOOK_SECRET_MAX = 255;
const TRUE_WORDS = ['true', '1', 'yes', 'on'] as const;
const FALSE_WORDS = ['false', '0', 'no', 'off'] as const;

const label = (field: string): string => field.replace(/_/g, ' ');
/** A repeated field arrives as an array: null makes it fail as "must be a string" (zod would also length-check it). */
const textOnly = (value: unknown): unknown => (value === undefined || typeof value === 'string' ? value : null);
const mustBeString = (field: string): string => `The ${label(field)} field must be a string.`;

function fileField(maxBytes: number) {
  return z
    .custom<UploadedFile>((value) => value !== undefined && value !== null, { error: 'The file field is required.' })
    .refine((file) => file.size <= maxBytes, {
      message: `The file field must not be greater than ${maxBytes / 1024} kilobytes.`,
    })
    .refine((file) => !CONTROL_CHARACTERS.test(file.originalname), {
      message: 'The file name must not contain control characters.',
    })
    .refine((file) => isSupportedExtension(extensionOf(file.originalname)), {
      message: `The file field must be a file of type: ${SUPPORTED_EXTENSIONS.join(', ')}.`,
    })
    .meta({
      type: 'string',
      format: 'binary',
      description: `The document. Extension (any case): ${SUPPORTED_EXTENSIONS.join(', ')}. At most the plan's limit: ${PLAN_NAMES.map((p) => `${p} ${PLANS[p].maxFileBytes / (1024 * 1024)} MB`).join(', ')}.`,
    });
}

const webhookUrlField = z
  .preprocess(
    textOnly,
    z
      .string({ error: mustBeString('webhook_url') })
      .refine(isValidUrl, { message: 'The webhook url field must be a valid URL.' })
      .refine((url) => !isValidUrl(url) || url.toLowerCase().startsWith('https://'), {
        message: 'The webhook url field must start with https://.',
      })
      .refine((url) => !isValidUrl(url) || !hasCredentials(url), {
        message: 'The webhook url field must not contain a user name or password.',
      })
      .max(WEBHOOK_URL_MAX, {
        message: `The webhook url field must not be greater than ${WEBHOOK_URL_MAX} characters.`,
      }),
  )
  .meta({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]://',
    description:
      'An https URL, without a user name or password. Its presence selects asynchronous mode: the answer is 202 and the result is POSTed here.',
  })
  .optional();

/** E5: a document to download instead of an upload; exactly one of file and file_url. */
const fileUrlField = z
  .preprocess(
    textOnly,
    z
      .string({ error: mustBeString('file_url') })
      .refine(isValidUrl, { message: 'The file url field must be a valid URL.' })
      .refine((url) => !isValidUrl(url) || url.toLowerCase().startsWith('https://'), {
        message: 'The file url field must start with https://.',
      })
      .max(FILE_URL_MAX, {
        message: `The file url field must not be greater than ${FILE_URL_MAX} characters.`,
      }),
  )
  .meta({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]://',
    description:
      'Instead of file: an https URL the service downloads (public addresses only, at most 3 redirects, within the ' +
      "plan's size limit and FETCH_TIMEOUT_MS). The name comes from Content-Disposition, else the URL's last path " +
      'segment; the format is sniffed from the bytes. A failed download is a 422 on file_url; nothing is charged.',
  })
  .optional();

const webhookSecretField = z
  .preprocess(
    textOnly,
    z
      .string({ error: mustBeString('webhook_secret') })
      .min(WEBHOOK_SECRET_MIN, {
        message: `The webhook secret field must be at least ${WEBHOOK_SECRET_MIN} characters.`,
      })
      .max(WEBHOOK_SECRET_MAX, {
        message: `The webhook secret field must not be greater than ${WEBHOOK_SECRET_MAX} characters.`,
      }),
  )
  .meta({ description: 'When given, webhook deliveries carry X-Webhook-Signature, an HMAC-SHA256 keyed with it.' })
  .optional();

/** A form flag: one of the boolean words in any case (decisions.md); absent means false. */
function flagField(field: string, description: string) {
  return z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
      z.enum([...TRUE_WORDS, ...FALSE_WORDS], {
        error: (issue) =>
          typeof issue.input === 'string' ? `The ${label(field)} field must be true or false.` : mustBeString(field),
      }),
    )
    .transform((word) => (TRUE_WORDS as readonly string[]).includes(word))
    .meta({ description: `${description} Any case; false when absent.` })
    .optional();
}

/** E2: the extensions whose pages (PDF pages, slides, sheets) page_range selects. */
export const PAGE_RANGE_EXTENSIONS: readonly string[] = ['pdf', 'pptx', 'ppt', 'odp', 'xlsx', 'xls', 'ods'];

/** E2: "N", "N-M" or a comma-separated list of those, ascending, not overlapping; kept in canonical form. */
const pageRangeField = z
  .preprocess(
    textOnly,
    z
      .string({ error: mustBeString('page_range') })
      .refine((text) => parsePageRange(text) !== null, {
        message: `The page range field must be pages like 1-3,7: ascending, not overlapping, from 1 to ${PAGE_RANGE_MAX_PAGE}.`,
      })
      .transform((text) => formatPageRange(parsePageRange(text)!)),
  )
  .meta({
    type: 'string',
    pattern: '^\\s*\\d+\\s*(-\\s*\\d+\\s*)?(,\\s*\\d+\\s*(-\\s*\\d+\\s*)?)*$',
    description:
      `Reads only these pages (E2): "N", "N-M" or a comma-separated list ("1-3,7"), 1-based, ascending, not overlapping, ` +
      `numbers up to ${PAGE_RANGE_MAX_PAGE}. PDF pages, slides (${['pptx', 'ppt', 'odp'].join(', ')}) and sheets ` +
      `(${['xlsx', 'xls', 'ods'].join(', ')}) only; a 422 on page_range for any other file. A range past the end ` +
      "selects the pages that exist; one that selects none fails the conversion (refunded). metadata.page_count stays the file's count.",
  })
  .optional();

/** E3: the chunks' token limit, an integer within the bounds. */
const chunkMaxTokensField = z
  .preprocess(
    textOnly,
    z
      .string({ error: mustBeString('chunk_max_tokens') })
      .trim()
      .regex(/^[+]?\d+$/, { message: 'The chunk max tokens field must be an integer.' })
      .transform(Number)
      .pipe(
        z
          .int()
          .min(CHUNK_MAX_TOKENS_MIN, { message: CHUNK_BOUNDS_MESSAGE })
          .max(CHUNK_MAX_TOKENS_MAX, { message: CHUNK_BOUNDS_MESSAGE }),
      ),
  )
  .meta({
    type: 'integer',
    minimum: CHUNK_MAX_TOKENS_MIN,
    maximum: CHUNK_MAX_TOKENS_MAX,
    description:
      'Adds chunks (E3): pieces of the Markdown of at most this many o200k_base tokens, with their pages and headings.',
  })
  .optional();

/** The multipart form of POST /convert (contract's Validation table plus decisions.md), fields in form order. */
export function convertFormSchema(maxFileBytes: number) {
  return z.object({
    file: fileField(maxFileBytes),
    file_url: fileUrlField,
    webhook_url: webhookUrlField,
    webhook_secret: webhookSecretField,
    use_enhanced_ai: flagField('use_enhanced_ai', 'Enhanced AI conversion; costs more credits.'),
    optimize_tokens: flagField('optimize_tokens', 'Shrinks the Markdown; the sync answer reports token_optimization.'),
    include_metadata: flagField('include_metadata', 'Adds metadata (title, author, page_count) to the result.'),
    include_pages: flagField('include_pages', 'Adds pages (E1): the Markdown of each page, slide or sheet.'),
    page_range: pageRangeField,
    chunk_max_tokens: chunkMaxTokensField,
    include_document: flagField('include_document', 'Adds document (E4): the document model as JSON.'),
  });
}

const FORM_BY_PLAN = Object.fromEntries(
  PLAN_NAMES.map((plan) => [plan, convertFormSchema(PLANS[plan].maxFileBytes)]),
) as Record<PlanName, ReturnType<typeof convertFormSchema>>;

const convertFieldsSchema = (maxFileBytes: number) => convertFormSchema(maxFileBytes).omit({ file: true });
const FIELDS_BY_PLAN = Object.fromEntries(
  PLAN_NAMES.map((plan) => [plan, convertFieldsSchema(PLANS[plan].maxFileBytes)]),
) as Record<PlanName, ReturnType<typeof convertFieldsSchema>>;

/** Validates every field but the file (a file_url request, before its download); a 422 lists every failing field. */
export function validateConvertFields(plan: PlanName, fields: Record<string, unknown>): void {
  const parsed = FIELDS_BY_PLAN[plan].safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
}

export interface ConvertRequest {
  file: UploadedFile;
  extension: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
  useEnhancedAi: boolean;
  optimizeTokens: boolean;
  includeMetadata: boolean;
  /** E1–E4; pageRange in canonical form ("1-3,7"), null for every page. */
  includePages: boolean;
  pageRange: string | null;
  chunkMaxTokens: number | null;
  includeDocument: boolean;
}

/** Validates the upload and the text fields against the plan's form; a 422 lists every failing field. */
export function validateConvertRequest(
  plan: PlanName,
  file: UploadedFile | undefined,
  fields: Record<string, unknown>,
): ConvertRequest {
  const parsed = FORM_BY_PLAN[plan].safeParse({ ...fields, file });
  const rangeRefused = pageRangeRefused(file, fields);
  if (!parsed.success || rangeRefused) {
    const errors = { ...(parsed.success ? {} : validationError(parsed.error).fieldErrors) };
    if (rangeRefused) errors.page_range = [rangeRefused];
    throw AppError.validation(inFormOrder(errors));
  }
  const form = parsed.data;
  return {
    file: form.file,
    extension: extensionOf(form.file.originalname),
    webhookUrl: form.webhook_url ?? null,
    webhookSecret: form.webhook_secret ?? null,
    useEnhancedAi: form.use_enhanced_ai ?? false,
    optimizeTokens: form.optimize_tokens ?? false,
    includeMetadata: form.include_metadata ?? false,
    includePages: form.include_pages ?? false,
    pageRange: form.page_range ?? null,
    chunkMaxTokens: form.chunk_max_tokens ?? null,
    includeDocument: form.include_document ?? false,
  };
}

/** E2: a well-formed page_range on a file without pages to select (a file the form accepts otherwise). */
function pageRangeRefused(file: UploadedFile | undefined, fields: Record<string, unknown>): string | null {
  if (typeof fields.page_range !== 'string' || parsePageRange(fields.page_range) === null || !file) return null;
  const extension = extensionOf(file.originalname);
  if (!isSupportedExtension(extension) || PAGE_RANGE_EXTENSIONS.includes(extension)) return null;
  return `The page range field applies only to files of type: ${PAGE_RANGE_EXTENSIONS.join(', ')}.`;
}

const FORM_ORDER = Object.keys(convertFormSchema(0).shape);

function inFormOrder(errors: Record<string, string[]>): Record<string, string[]> {
  const known = FORM_ORDER.filter((field) => errors[field]);
  const others = Object.keys(errors).filter((field) => !FORM_ORDER.includes(field));
  return Object.fromEntries([...known, ...others].map((field) => [field, errors[field]!]));
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 || (dot === 0 && filename.length > 1) ? filename.slice(dot + 1).toLowerCase() : '';
}

/** `https://user:pass@host/` would be stored in clear and sent as Basic auth: a webhook_secret signs deliveries instead. */
function hasCredentials(value: string): boolean {
  const url = new URL(value);
  return url.username !== '' || url.password !== '';
}

function isValidUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0 && !/\s/.test(value);
  } catch {
    return false;
  }
}
