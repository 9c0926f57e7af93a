import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '@markwright/config';
import { redactedUrl } from './redacted-url';

declare module 'http' {
  interface IncomingMessage {
    /** This request's logger: every line it writes carries the request's `requestId`. */
    log: Logger;
  }
}

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
 *
 * The access line is the one pino-http wrote (same fields in the same order: `req` with method
 * and redacted URL, `res` with the status once headers went out, `responseTime`, and "request
 * completed", "request aborted" or, from a 5xx or a response error, "request errored" with `err`),
 * from one child logger per request where pino-http made two and kept three listeners and two
 * arrays on each request: its objects were the largest share of what the gateway's requests
 * carried through young-generation collections at 64 connections (docs/performance.md, helper p99).
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const log = logger.child({ requestId });
    req.log = log;
    const startedAt = Date.now();
    // As pino-http bound it: the URL as received, before a router strips its mount path.
    const requestLine = { method: req.method, url: redactedUrl(req.originalUrl || req.url) };
    const done = (err?: Error): void => {
      res.removeListener('close', done);
      res.removeListener('finish', done);
      res.removeListener('error', done);
      logAccess(log, req, res, requestLine, Date.now() - startedAt, err);
    };
    // A probe's response is logged only if it fails.
    if (!UNLOGGED_PATHS.has((req.url ?? '').split('?')[0] ?? '')) {
      res.on('close', done);
      res.on('finish', done);
    }
    res.on('error', done);
    next();
  };
}

function logAccess(
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  requestLine: { method: string; url: string },
  responseTime: number,
  err: Error | undefined,
): void {
  const response = { statusCode: res.headersSent ? res.statusCode : null };
  if (err || res.statusCode >= 500) {
    const error = err ?? new Error(`failed with status code ${res.statusCode}`);
    log.info({ req: requestLine, res: response, err: error, responseTime }, 'request errored');
    return;
  }
  const completed = !req.readableAborted && res.writableEnded;
  log.info({ req: requestLine, res: response, responseTime }, completed ? 'request completed' : 'request aborted');
}
