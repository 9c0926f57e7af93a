import { isSupportedExtension, SUPPORTED_EXTENSIONS } from '@markwright/conversion';
import { AppError } from './app-error';
import { PLANS, type PlanName } from './plans';

export interface UploadedFile {
  originalname: string;
  size: number;
  buffer: Buffer;
}

export interface ConvertRequest {
  file: UploadedFile;
  extension: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
  useEnhancedAi: boolean;
  optimizeTokens: boolean;
  includeMetadata: boolean;
}

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];
const FLAGS = [
  ['use_enhanced_ai', 'use enhanced ai'],
  ['optimize_tokens', 'optimize tokens'],
  ['include_metadata', 'include metadata'],
] as const;
/** C0, DEL and C1: never part of a real file name, and NUL cannot even be stored by PostgreSQL. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_SECRET_MIN = 32;
export const WEBHOOK_SECRET_MAX = 255;

/** The Validation table of the contract plus decisions.md, as Laravel-style messages per field. */
export function validateConvertRequest(
  plan: PlanName,
  file: UploadedFile | undefined,
  fields: Record<string, unknown>,
): ConvertRequest {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string): void => {
    (errors[field] ??= []).push(message);
  };

  const extension = file ? extensionOf(file.originalname) : '';
  if (!file) {
    add('file', 'The file field is required.');
  } else {
    const maxBytes = PLANS[plan].maxFileBytes;
    if (file.size > maxBytes) {
      add('file', `The file field must not be greater than ${maxBytes / 1024} kilobytes.`);
    }
    if (CONTROL_CHARACTERS.test(file.originalname)) {
      add('file', 'The file name must not contain control characters.');
    }
    if (!isSupportedExtension(extension)) {
      add('file', `The file field must be a file of type: ${SUPPORTED_EXTENSIONS.join(', ')}.`);
    }
  }

  const webhookUrl = stringField(fields.webhook_url, 'webhook_url', add);
  if (webhookUrl !== null) {
    if (!isValidUrl(webhookUrl)) add('webhook_url', 'The webhook url field must be a valid URL.');
    else if (!webhookUrl.toLowerCase().startsWith('https://')) {
      add('webhook_url', 'The webhook url field must start with https://.');
    }
    if (webhookUrl.length > WEBHOOK_URL_MAX) {
      add('webhook_url', `The webhook url field must not be greater than ${WEBHOOK_URL_MAX} characters.`);
    }
  }

  const webhookSecret = stringField(fields.webhook_secret, 'webhook_secret', add);
  if (webhookSecret !== null) {
    if (webhookSecret.length < WEBHOOK_SECRET_MIN) {
      add('webhook_secret', `The webhook secret field must be at least ${WEBHOOK_SECRET_MIN} characters.`);
    }
    if (webhookSecret.length > WEBHOOK_SECRET_MAX) {
      add('webhook_secret', `The webhook secret field must not be greater than ${WEBHOOK_SECRET_MAX} characters.`);
    }
  }

  const flags: Record<string, boolean> = {};
  for (const [name, label] of FLAGS) {
    const raw = stringField(fields[name], name, add);
    if (raw === null) flags[name] = false;
    else if (TRUE_WORDS.includes(raw.trim().toLowerCase())) flags[name] = true;
    else if (FALSE_WORDS.includes(raw.trim().toLowerCase())) flags[name] = false;
    else add(name, `The ${label} field must be true or false.`);
  }

  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return {
    file: file!,
    extension,
    webhookUrl,
    webhookSecret,
    useEnhancedAi: flags.use_enhanced_ai!,
    optimizeTokens: flags.optimize_tokens!,
    includeMetadata: flags.include_metadata!,
  };
}

function stringField(value: unknown, name: string, add: (field: string, message: string) => void): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  add(name, `The ${name.replace(/_/g, ' ')} field must be a string.`);
  return null;
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 || (dot === 0 && filename.length > 1) ? filename.slice(dot + 1).toLowerCase() : '';
}

function isValidUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0 && !/\s/.test(value);
  } catch {
    return false;
  }
}
