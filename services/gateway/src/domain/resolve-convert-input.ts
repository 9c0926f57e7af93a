import { ConversionError, isSupportedExtension, sniffContent as sniffFormat } from '@markwright/conversion/formats';
import { AppError } from './app-error';
import {
  extensionOf,
  type ConvertRequest,
  type UploadedFile,
  validateConvertFields,
  validateConvertRequest,
} from './convert-request';
import { PLANS, type PlanName } from './plans';
import { MAX_FETCH_REDIRECTS, type DownloadFailure, type UrlDownloader } from '../data-access/url-download';

export interface ConvertInputDeps {
  download: UrlDownloader;
}

/** A downloaded file whose URL and headers name nothing. */
const UNNAMED = 'download';

/**
 * POST /convert's input (E5): an upload is validated as always. A file_url request validates its
 * fields → downloads within the plan's limit (nothing is charged when it fails) → names the file,
 * sniffing its format when the name has no extension we read → validates it as an upload,
 * answering about file_url. Exactly one of file and file_url.
 */
export async function resolveConvertRequest(
  deps: ConvertInputDeps,
  plan: PlanName,
  file: UploadedFile | undefined,
  fields: Record<string, unknown>,
): Promise<ConvertRequest> {
  if (fields.file_url === undefined) return validateConvertRequest(plan, file, fields);
  if (file !== undefined) throw bothGiven(plan, file, fields);
  validateConvertFields(plan, fields);
  const result = await deps.download(String(fields.file_url), PLANS[plan].maxFileBytes);
  if (!result.ok) throw AppError.validation({ file_url: [downloadFailureMessage(result)] });
  const downloaded = await namedByContent(result.file.name || UNNAMED, result.file.bytes);
  try {
    return validateConvertRequest(plan, downloaded, fields);
  } catch (err) {
    throw answeredAboutFileUrl(err);
  }
}

function bothGiven(plan: PlanName, file: UploadedFile, fields: Record<string, unknown>): AppError {
  const errors: Record<string, string[]> = { file: ['Send either file or file_url, not both.'] };
  try {
    validateConvertRequest(plan, file, fields);
  } catch (err) {
    const others = err instanceof AppError ? (err.fieldErrors ?? {}) : {};
    for (const [field, messages] of Object.entries(others)) (errors[field] ??= []).push(...messages);
  }
  return AppError.validation(errors);
}

/** The name as given when its extension is one we read; otherwise the sniffed format's extension is added. */
async function namedByContent(name: string, bytes: Buffer): Promise<UploadedFile> {
  const file = (originalname: string): UploadedFile => ({ originalname, size: bytes.length, buffer: bytes });
  const extension = extensionOf(name);
  if (isSupportedExtension(extension)) return file(name);
  let format: string;
  try {
    format = await sniffFormat(bytes, extension).catch(() => sniffFormat(bytes, 'txt'));
  } catch (err) {
    if (!(err instanceof ConversionError)) throw err;
    throw AppError.validation({
      file_url: ['The file at the file url is not a document, image or audio file in any format we convert.'],
    });
  }
  return file(`${name}.${format}`);
}

/** The downloaded file's own faults (type, name) belong to file_url, which the caller sent. */
function answeredAboutFileUrl(err: unknown): unknown {
  if (!(err instanceof AppError) || err.kind !== 'invalid' || !err.fieldErrors) return err;
  const { file, ...rest } = err.fieldErrors;
  if (!file) return err;
  const reworded = file.map((m) =>
    m.replace(/^The file field/, 'The file at the file url').replace(/^The file name/, "The file url's file name"),
  );
  return AppError.validation({ file_url: reworded, ...rest });
}

export function downloadFailureMessage(failure: DownloadFailure): string {
  switch (failure.reason) {
    case 'blocked':
      return `The file url points to a non-public address (${failure.address}), which is not allowed.`;
    case 'status':
      return `The file url could not be downloaded: the server answered ${failure.statusCode}.`;
    case 'too_large':
      return `The file at the file url must not be greater than ${failure.limitBytes / 1024} kilobytes.`;
    case 'timeout':
      return `The file url could not be downloaded within ${failure.timeoutMs / 1000} seconds.`;
    case 'too_many_redirects':
      return `The file url redirected more than ${MAX_FETCH_REDIRECTS} times.`;
    case 'insecure_redirect':
      return 'The file url redirected to an address that does not use https.';
    case 'unreachable':
      return 'The file url could not be reached.';
  }
}
