import fs from 'node:fs';
import tls from 'node:tls';

/**
 * Node's roots plus the PEM file of extra CAs (NODE_EXTRA_CA_CERTS), read explicitly so that a
 * service started in-process (tests) trusts it too; undefined (Node's default) without one.
 */
export function trustedCertificateAuthorities(extraCaFile: string | undefined): string[] | undefined {
  if (!extraCaFile || !fs.existsSync(extraCaFile)) return undefined;
  return [...tls.rootCertificates, fs.readFileSync(extraCaFile, 'utf8')];
}
