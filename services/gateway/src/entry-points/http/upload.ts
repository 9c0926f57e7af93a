import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../../domain/app-error';
import { SERVER_UPLOAD_CAP_BYTES } from '../../domain/plans';

const MAX_TEXT_FIELD_BYTES = 8 * 1024;

/** multer in memory with the 60 MB server cap: an upload over it answers 413 before any validation. */
export function receiveUpload(): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: SERVER_UPLOAD_CAP_BYTES, files: 1, fields: 20, fieldSize: MAX_TEXT_FIELD_BYTES },
  }).single('file');
  return (req, res, next) => {
    upload(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(AppError.payloadTooLarge(SERVER_UPLOAD_CAP_BYTES));
        if (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT') {
          return next(
            AppError.validation({ [err.field ?? 'file']: ['Only one file may be uploaded, in the file field.'] }),
          );
        }
        if (err.code === 'LIMIT_FIELD_VALUE') {
          return next(AppError.validation({ [err.field ?? 'field']: [`The ${err.field} field is too long.`] }));
        }
        return next(AppError.validation({ file: [`The upload could not be read (${err.message}).`] }));
      }
      if (err instanceof Error && /multipart|boundary|Unexpected end of form/i.test(err.message)) {
        return next(AppError.validation({ file: ['The file field is required.'] }));
      }
      next(err);
    });
  };
}
