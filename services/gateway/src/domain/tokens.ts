import crypto from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_PREFIX = 'mwk_';
const TOKEN_BODY_LENGTH = 40;
const TOKEN_FORMAT = /^mwk_[0-9A-Za-z]{40}$/;

/** `mwk_` + 40 random base62 characters, drawn without modulo bias. */
export function generateToken(): string {
  let body = '';
  while (body.length < TOKEN_BODY_LENGTH) {
    for (const byte of crypto.randomBytes(64)) {
      if (byte < 248 && body.length < TOKEN_BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${TOKEN_PREFIX}${body}`;
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

/** Only this hash is stored; the plain token is shown once. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
