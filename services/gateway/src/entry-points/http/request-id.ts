import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@markwright/config';
import { redactedUrl } from './redacted-url';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A caller's id is kept when it is short and plain (no spaces, no control characters), so it can't forge log lines. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Probes and scrapes come every few seconds; an access line for each would drown the rest. */
const UNLOGGED_PATHS = new Set(['/livez', '/healthz', '/readyz', '/metrics']);

export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * Gives every request an id, sends it back in X-Request-Id, and binds it as `requestId` to
 * `req.log`, so every line logged for that request (and its access line) carries it.
 */
export function requestContext(logger: Logger) {
  return pinoHttp({
    logger,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // The access line says what was asked and answered; headers (tokens, cookies) stay out.
    serializers: {
      // Tokens sent in the query string (?access_token=, any mwk_ value) are redacted too.
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => UNLOGGED_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
  });
}
