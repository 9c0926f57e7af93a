import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../../domain/app-error';
import { SERVER_UPLOAD_CAP_BYTES } from '../../domain/plans';

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

/**
 * multer in memory with the 60 MB server cap (413 before any validation) and the form limits
 * above (422). A body the multipart parser cannot read answers 422 on file, never 500, and never
 * repeats the parser's own message.
 */
export function receiveUpload(): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
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
    upload(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(AppError.payloadTooLarge(SERVER_UPLOAD_CAP_BYTES));
        const limit = LIMIT_MESSAGES[err.code];
        if (limit) {
          const [field, message] = limit(err.field ?? 'file');
          return next(AppError.validation({ [field]: [message] }));
        }
      }
      // Anything else the parser raised (malformed part header, truncated body, no boundary,
      // a raw control character in a filename) means the body is not a readable form.
      next(AppError.malformedForm());
    });
  };
}
