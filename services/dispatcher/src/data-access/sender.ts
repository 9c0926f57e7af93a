import https from 'node:https';
import tls from 'node:tls';
import got, { RequestError } from 'got';
import { BlockedAddressError, guardedLookup, literalHostBlocked, trustedCertificateAuthorities } from '@markwright/net';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  userAgent: string;
  /** PEM file of extra trusted CAs (NODE_EXTRA_CA_CERTS), read explicitly so in-process use trusts it too. */
  extraCaFile?: string;
}

/**
 * Node's global HTTPS agent's options (what requests without an agent of their own get): kept-alive
 * connections that close before a receiver's announced `Keep-Alive: timeout` instead of being reused
 * as it closes them.
 */
const GLOBAL_AGENT_OPTIONS: https.AgentOptions = { keepAlive: true, scheduling: 'lifo', timeout: 5000 };

/** One HTTPS POST of the exact bytes: whole-exchange deadline, no redirects, no retries (ours are scheduled). */
export function createSender(options: SenderOptions) {
  const ca = trustedCertificateAuthorities(options.extraCaFile);
  // The CAs in one TLS context built once: given with each request, they made Node's agent key every
  // request by their ~200 KB of PEM text (3 ms of CPU) and parse ~150 certificates for each new connection.
  const agent = ca && new https.Agent({ ...GLOBAL_AGENT_OPTIONS, secureContext: tls.createSecureContext({ ca }) });
  const lookup = guardedLookup(options.allowPrivateNetworks);
  return async function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = Date.now();
    const done = (statusCode: number | null, error: string | null): SendResult => ({
      statusCode,
      error,
      durationMs: Date.now() - started,
      succeeded: statusCode !== null && statusCode >= 200 && statusCode < 300,
    });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return done(null, 'invalid webhook URL');
    }
    if (parsed.protocol !== 'https:') return done(null, 'webhook URL must use https');
    const blocked = literalHostBlocked(parsed.hostname, options.allowPrivateNetworks);
    if (blocked) return done(null, blocked);
    try {
      const res = await got.post(url, {
        body,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': options.userAgent },
        timeout: { request: options.timeoutMs },
        followRedirect: false,
        throwHttpErrors: false,
        retry: { limit: 0 },
        lookup: lookup as never,
        agent: agent ? { https: agent } : undefined,
      });
      if (res.statusCode >= 300 && res.statusCode < 400)
        return done(res.statusCode, `redirect (${res.statusCode}) not followed`);
      return done(
        res.statusCode,
        res.statusCode >= 200 && res.statusCode < 300 ? null : `receiver answered ${res.statusCode}`,
      );
    } catch (err) {
      const e = err as RequestError;
      const inner = (e as { cause?: unknown }).cause ?? (e as { originalError?: unknown }).originalError;
      if (inner instanceof BlockedAddressError || e.message.includes('non-public address')) {
        return done(null, e.message.replace(/^.*?(refused to deliver)/, '$1'));
      }
      if (e.name === 'TimeoutError') return done(null, `timed out after ${options.timeoutMs} ms`);
      return done(null, `${e.code ?? e.name}: ${e.message}`.slice(0, 500));
    }
  };
}
export type Send = ReturnType<typeof createSender>;
