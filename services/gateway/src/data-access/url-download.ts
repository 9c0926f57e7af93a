import type { IncomingHttpHeaders } from 'node:http';
import got, { type Options, type RequestError } from 'got';
import { parse as parseContentDisposition } from 'content-disposition';
import {
  type AddressPolicy,
  BlockedAddressError,
  guardedLookup,
  literalHostBlocked,
  trustedCertificateAuthorities,
} from '@markwright/net';

/** At most this many redirects are followed, each to https and each through the address guard (E5). */
export const MAX_FETCH_REDIRECTS = 3;
const USER_AGENT = 'Markwright-Fetch/0.1.0';

export interface DownloadOptions {
  timeoutMs: number;
  /** ALLOW_PRIVATE_NETWORKS, or a policy of its own (tests). */
  allowPrivateNetworks: AddressPolicy;
  /** PEM file of extra trusted CAs (NODE_EXTRA_CA_CERTS), as for webhooks. */
  extraCaFile?: string;
}

export type DownloadFailure =
  | { reason: 'blocked'; address: string }
  | { reason: 'status'; statusCode: number }
  | { reason: 'too_large'; limitBytes: number }
  | { reason: 'timeout'; timeoutMs: number }
  | { reason: 'too_many_redirects' }
  | { reason: 'insecure_redirect' }
  | { reason: 'unreachable' };

export interface DownloadedFile {
  /** From Content-Disposition, else the last segment of the final URL's path; empty when neither names it. */
  name: string;
  bytes: Buffer;
}

export type DownloadResult = { ok: true; file: DownloadedFile } | ({ ok: false } & DownloadFailure);

/**
 * GETs an https URL for POST /convert's file_url: the address actually connected to is checked
 * by the guard on every hop (a lookup hook, plus IP-literal hosts before connecting), at most 3
 * redirects, all https; bytes are counted as they arrive and the download is aborted as soon as
 * they pass `maxBytes`, so no more than the limit is ever held; the whole exchange has one deadline.
 */
export function createUrlDownloader(options: DownloadOptions) {
  const lookup = guardedLookup(options.allowPrivateNetworks);
  const ca = trustedCertificateAuthorities(options.extraCaFile);

  return async function download(url: string, maxBytes: number): Promise<DownloadResult> {
    const literal = literalHostBlocked(new URL(url).hostname, options.allowPrivateNetworks);
    if (literal) return { ok: false, reason: 'blocked', address: new URL(url).hostname.replace(/^\[|\]$/g, '') };
    const chunks: Buffer[] = [];
    let received = 0;
    // got wraps errors without keeping them, so our own reason to stop is remembered here.
    let stopped: DownloadFailure | undefined;
    const stop = (failure: DownloadFailure): Error => {
      stopped ??= failure;
      return new Error(failure.reason);
    };
    let finalUrl = url;
    let headers: IncomingHttpHeaders = {};
    const stream = got.stream(url, {
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
      followRedirect: true,
      maxRedirects: MAX_FETCH_REDIRECTS,
      retry: { limit: 0 },
      lookup: lookup as never,
      https: ca ? { certificateAuthority: ca } : undefined,
      hooks: {
        beforeRedirect: [
          (next: Options) => {
            const target = next.url as URL;
            if (target.protocol !== 'https:') throw stop({ reason: 'insecure_redirect' });
            const blocked = literalHostBlocked(target.hostname, options.allowPrivateNetworks);
            if (blocked) throw stop({ reason: 'blocked', address: target.hostname.replace(/^\[|\]$/g, '') });
          },
        ],
      },
    });
    const deadline = setTimeout(
      () => stream.destroy(stop({ reason: 'timeout', timeoutMs: options.timeoutMs })),
      options.timeoutMs,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        stream.on('response', (res: { statusCode: number; headers: IncomingHttpHeaders; url: string }) => {
          finalUrl = res.url;
          headers = res.headers;
          const declared = Number(res.headers['content-length']);
          if (res.statusCode >= 200 && res.statusCode < 300 && declared > maxBytes) {
            stream.destroy(stop({ reason: 'too_large', limitBytes: maxBytes }));
          }
        });
        stream.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) {
            stream.destroy(stop({ reason: 'too_large', limitBytes: maxBytes }));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('end', resolve);
        stream.on('error', reject);
      });
    } catch (err) {
      return { ok: false, ...(stopped ?? failureOf(err as Error, options.timeoutMs)) };
    } finally {
      clearTimeout(deadline);
    }
    return { ok: true, file: { name: fileNameOf(headers, finalUrl), bytes: Buffer.concat(chunks, received) } };
  };
}
export type UrlDownloader = ReturnType<typeof createUrlDownloader>;

function failureOf(err: Error, timeoutMs: number): DownloadFailure {
  // The guard's BlockedAddressError reaches us re-wrapped by got: its message is what is left of it.
  const blocked = /non-public address (\S+)/.exec(err.message);
  if (err instanceof BlockedAddressError || blocked) return { reason: 'blocked', address: blocked?.[1] ?? '' };
  const e = err as RequestError & { response?: { statusCode?: number } };
  if (e.name === 'HTTPError' && e.response?.statusCode) return { reason: 'status', statusCode: e.response.statusCode };
  if (e.name === 'MaxRedirectsError') return { reason: 'too_many_redirects' };
  if (e.name === 'TimeoutError') return { reason: 'timeout', timeoutMs };
  return { reason: 'unreachable' };
}

/** Content-Disposition's filename (filename* first), else the URL's last path segment, decoded. */
function fileNameOf(headers: IncomingHttpHeaders, url: string): string {
  const disposition = headers['content-disposition'];
  if (disposition) {
    try {
      const name = parseContentDisposition(disposition).parameters.filename;
      if (name) return baseName(name);
    } catch {
      // An unreadable header names nothing; the URL still may.
    }
  }
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return baseName(decodeURIComponent(segment));
  } catch {
    return baseName(segment);
  }
}

/** A name never carries a path: a header saying "../../x.pdf" names "x.pdf". */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop()!.trim();
}
