import fs from 'node:fs/promises';
import os from 'node:os';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../../domain/app-error';
import { PLANS, SERVER_UPLOAD_CAP_BYTES } from '../../domain/plans';
import { DEFAULT_UPLOADS_PER_WORKSPACE, type UploadSlot, UploadSlots } from '../../domain/upload-slots';
import { workspaceOf } from './auth';
import { removeSpooled, spooledUploadStorage } from './spooled-upload-storage';

/** Limits of the form itself, beyond the file's size: named here, answered with a clear 4xx. */
export const FORM_LIMITS = {
  /** The contract's fields (webhook_url, webhook_secret, three flags) with room to spare. */
  fields: 20,
  /** One file plus the fields. */
  parts: 21,
  fieldSizeBytes: 8 * 1024,
  fieldNameBytes: 100,
  headerPairs: 20,
} as const;

const LIMIT_MESSAGES: Partial<Record<multer.ErrorCode, (field: string) => [string, string]>> = {
  LIMIT_UNEXPECTED_FILE: (field) => [field, 'Only one file may be uploaded, in the file field.'],
  LIMIT_FILE_COUNT: (field) => [field, 'Only one file may be uploaded, in the file field.'],
  LIMIT_FIELD_VALUE: (field) => [field, `The ${field} field is too long.`],
  LIMIT_FIELD_KEY: () => ['form', `A field name is longer than ${FORM_LIMITS.fieldNameBytes} bytes.`],
  LIMIT_FIELD_COUNT: () => ['form', `The form may have at most ${FORM_LIMITS.fields} fields.`],
  LIMIT_PART_COUNT: () => ['form', `The form may have at most ${FORM_LIMITS.parts} parts.`],
};

/** Room for the form around the file (fields, part headers): a body larger than the cap plus this holds a file over the cap. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
/**
 * A body declared at most this large (the node parser never reads past Content-Length) takes no
 * upload slot: it costs little memory however many run at once, and bursts of small conversions
 * (scripts, tests, load) are not refused. Larger or chunked bodies count against the cap.
 */
export const UNCOUNTED_UPLOAD_MAX_BYTES = 256 * 1024;
const UNCOUNTED: UploadSlot = { release: () => undefined };

function mayBeLarge(req: Request): boolean {
  const declared = req.get('content-length');
  return declared === undefined || !(Number(declared) <= UNCOUNTED_UPLOAD_MAX_BYTES);
}

/** Seconds a client is asked to wait when its workspace already has its uploads in flight. */
const UPLOADS_BUSY_RETRY_AFTER_SECONDS = 1;

export interface UploadOptions {
  slots: UploadSlots;
  /** Directory of the temporary files (default: the system's temporary directory). */
  tmpDir?: string;
}

/**
 * Receives the form of POST /convert after authentication, so the workspace and its plan are
 * known before the first byte of the body is read:
 * - a body declared larger than the server cap answers 413 unread; past the cap while reading, 413;
 * - past the workspace's concurrent uploads (UPLOADS_PER_WORKSPACE; small declared bodies don't
 *   count), 429 with Retry-After;
 * - a file up to 64 KB is held in memory; a larger one is streamed to a temporary file, kept only
 *   up to the plan's limit (beyond it the rest is counted, not kept, and validation answers 422),
 *   then read for the hand-off and removed;
 * - file names are decoded as UTF-8 (what browsers and curl send), not latin1;
 * - empty fields count as absent;
 * - the form limits above answer 422, and a body the multipart parser cannot read answers 422
 *   on file, never 500, never with the parser's own message.
 * The slot is freed when the upload is stored (`release`) or the request ends; the temporary
 * file is removed on every path.
 */
export function receiveUpload(
  options: UploadOptions = { slots: new UploadSlots(DEFAULT_UPLOADS_PER_WORKSPACE) },
): RequestHandler {
  const upload = multer({
    storage: spooledUploadStorage(
      () => options.tmpDir ?? os.tmpdir(),
      (req) => PLANS[workspaceOf(req).plan].maxFileBytes,
    ),
    defParamCharset: 'utf8',
    limits: {
      fileSize: SERVER_UPLOAD_CAP_BYTES,
      files: 1,
      fields: FORM_LIMITS.fields,
      parts: FORM_LIMITS.parts,
      fieldSize: FORM_LIMITS.fieldSizeBytes,
      fieldNameSize: FORM_LIMITS.fieldNameBytes,
      headerPairs: FORM_LIMITS.headerPairs,
    },
  }).single('file');
  return (req, res, next) => {
    if (Number(req.get('content-length') ?? 0) > SERVER_UPLOAD_CAP_BYTES + FORM_OVERHEAD_BYTES) {
      return next(AppError.payloadTooLarge(SERVER_UPLOAD_CAP_BYTES));
    }
    const slot = mayBeLarge(req) ? options.slots.acquire(workspaceOf(req).id) : UNCOUNTED;
    if (!slot) {
      res.set('Retry-After', String(UPLOADS_BUSY_RETRY_AFTER_SECONDS));
      return next(AppError.uploadsBusy());
    }
    res.on('close', () => {
      slot.release();
      void removeSpooled(spooledPath(req.file)).catch(() => undefined);
    });
    upload(req, res, (err: unknown) => {
      if (err) return next(uploadError(err));
      dropEmptyFields(req.body as Record<string, unknown> | undefined);
      handOff(req.file, slot).then(() => next(), next);
    });
  };
}

/** An HTML form (and the /docs page's "try it") sends unfilled inputs as empty fields: they count as absent. */
function dropEmptyFields(fields: Record<string, unknown> | undefined): void {
  if (!fields) return;
  for (const [name, value] of Object.entries(fields)) if (value === '') delete fields[name];
}

function spooledPath(file: Express.Multer.File | undefined): string | undefined {
  return (file as { path?: string } | undefined)?.path;
}

/** The kept file becomes the request's bytes (as the memory storage gave them) and its temporary file goes. */
async function handOff(file: Express.Multer.File | undefined, slot: UploadSlot): Promise<void> {
  if (!file) return;
  const spooled = spooledPath(file);
  if (spooled) {
    file.buffer = await fs.readFile(spooled);
    await removeSpooled(spooled);
  } else {
    // Held in memory (small), or over the plan's limit (nothing kept: the size check answers 422).
    file.buffer ??= Buffer.alloc(0);
  }
  (file as { release?: () => void }).release = slot.release;
}

function uploadError(err: unknown): AppError {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return AppError.payloadTooLarge(SERVER_UPLOAD_CAP_BYTES);
    const limit = LIMIT_MESSAGES[err.code];
    if (limit) {
      const [field, message] = limit(err.field ?? 'file');
      return AppError.validation({ [field]: [message] });
    }
  }
  // Anything else the parser raised (malformed part header, truncated body, no boundary,
  // a raw control character in a filename) means the body is not a readable form.
  return AppError.malformedForm();
}
