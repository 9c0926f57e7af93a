import net from 'node:net';
import type { Request } from 'express';

/**
 * The public address of a path of this API, for the links of list pages. From PUBLIC_BASE_URL
 * when set (with or without its /api/v1 ending); otherwise from the address the request reached
 * on this server's socket, never from the Host header, which any client can set to anything.
 */
export function publicUrlOf(req: Request, publicBaseUrl: string | undefined, pathInApi: string): string {
  if (publicBaseUrl) {
    const base = publicBaseUrl.replace(/\/+$/, '');
    return base.endsWith(req.baseUrl) ? `${base}${pathInApi}` : `${base}${req.baseUrl}${pathInApi}`;
  }
  return `${req.protocol}://${hostOf(req.socket.localAddress)}:${req.socket.localPort}${req.baseUrl}${pathInApi}`;
}

function hostOf(address: string | undefined): string {
  if (!address) return 'localhost';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  return net.isIPv6(address) ? `[${address}]` : address;
}
