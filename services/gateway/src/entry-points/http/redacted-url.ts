/** Query parameters that carry credentials by convention (OAuth's access_token, and the usual short names). */
const CREDENTIAL_PARAMETERS = new Set(['access_token', 'token', 'api_key', 'apikey', 'key']);
/** Our token's form (decisions.md): `mwk_` and base62 characters. */
const TOKEN = /mwk_[A-Za-z0-9]*/gi;
const REDACTED = '[redacted]';

/**
 * The request URL as the access log may show it: values of credential-named query parameters,
 * and anything shaped like one of our tokens (in the path or any parameter, plain or
 * percent-encoded), are replaced. Everything else stays as sent, so the line still says what was asked.
 */
export function redactedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const shownPath = holdsToken(path) ? decoded(path).replace(TOKEN, `mwk_${REDACTED}`) : path;
  if (queryAt === -1) return shownPath;
  const pairs = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const value = equals === -1 ? '' : pair.slice(equals + 1);
      if (holdsToken(name)) return REDACTED;
      if (holdsToken(value) || (value !== '' && CREDENTIAL_PARAMETERS.has(decoded(name).toLowerCase()))) {
        return `${name}=${REDACTED}`;
      }
      return pair;
    });
  return `${shownPath}?${pairs.join('&')}`;
}

function holdsToken(part: string): boolean {
  return /mwk_/i.test(decoded(part));
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}
