import { createHash } from 'node:crypto';
import CFB from 'cfb';

/**
 * Excel's default password: a workbook saved with a protected structure or "read-only recommended" is
 * RC4-encrypted with it, and Excel opens it without asking (MS-OFFCRYPTO 2.3.6).
 */
const DEFAULT_PASSWORD = 'VelvetSweatshop';
const FILE_PASS = 0x002f;
const EOF = 0x000a;
const BOUND_SHEET = 0x0085;
/** Records left in clear in an encrypted workbook stream (MS-XLS 2.2.10): BOF, FilePass, UsrExcl, FileLock, InterfaceHdr, RRDInfo, RRDHead. */
const CLEAR_RECORDS = new Set([0x0809, FILE_PASS, 0x0194, 0x0195, 0x00e1, 0x0196, 0x0138]);
/** A BoundSheet8's stream position (its first 4 bytes) is left in clear. */
const BOUND_SHEET_CLEAR_BYTES = 4;
/** The RC4 key changes every 1024 bytes of the stream. */
const RC4_BLOCK = 1024;
/** A record type no reader knows, which SheetJS skips: the FilePass record becomes one once the stream is decrypted. */
const SKIPPED_RECORD = 0x0fff;
const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * An XLS encrypted with Excel's default password, decrypted (its FilePass record turned into one
 * readers skip); none when the file is not so encrypted (no FilePass, another scheme, another password).
 */
export function withoutDefaultPassword(input: Buffer): Buffer | undefined {
  if (!input.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)) return undefined;
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(input, { type: 'buffer' });
  } catch {
    return undefined;
  }
  const entry = CFB.find(cfb, 'Workbook') ?? CFB.find(cfb, 'Book');
  if (!entry?.content) return undefined;
  const stream = Buffer.from(entry.content as Uint8Array);
  const filePass = filePassAt(stream);
  if (filePass === undefined) return undefined;
  const body = stream.subarray(filePass + 4, filePass + 4 + stream.readUInt16LE(filePass + 2));
  // RC4 (wEncryptionType 1) with the standard header (version 1.1); CryptoAPI RC4 is not read.
  if (body.length < 54 || body.readUInt16LE(0) !== 1 || body.readUInt16LE(2) !== 1 || body.readUInt16LE(4) !== 1)
    return undefined;
  const keys = rc4Keys(DEFAULT_PASSWORD, body.subarray(6, 22));
  if (!verifies(keys, body.subarray(22, 38), body.subarray(38, 54))) return undefined;
  const plain = decryptedStream(stream, filePass, keys);
  plain.writeUInt16LE(SKIPPED_RECORD, filePass);
  entry.content = plain;
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/** Where the workbook globals' FilePass record starts, if they have one. */
function filePassAt(stream: Buffer): number | undefined {
  for (let at = 0; at + 4 <= stream.length; at += 4 + stream.readUInt16LE(at + 2)) {
    const type = stream.readUInt16LE(at);
    if (type === FILE_PASS) return at + 4 <= stream.length ? at : undefined;
    if (type === EOF) return undefined;
  }
  return undefined;
}

/** The RC4 key of each 1024-byte block, from the password and the salt (MS-OFFCRYPTO 2.3.6.2). */
function rc4Keys(password: string, salt: Buffer): (block: number) => Buffer {
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const truncated = md5(Buffer.from(password, 'utf16le')).subarray(0, 5);
  const intermediate = md5(...Array.from({ length: 16 }, () => Buffer.concat([truncated, salt]))).subarray(0, 5);
  return (block) => {
    const number = Buffer.alloc(4);
    number.writeUInt32LE(block);
    return md5(intermediate, number);
  };
}

/** Whether the password is the one the file was encrypted with: the verifier's MD5 is its hash. */
function verifies(keys: (block: number) => Buffer, verifier: Buffer, hash: Buffer): boolean {
  const plain = xorWith(rc4Stream(keys(0), verifier.length + hash.length), Buffer.concat([verifier, hash]));
  return createHash('md5').update(plain.subarray(0, 16)).digest().equals(plain.subarray(16, 32));
}

/**
 * The workbook stream decrypted: every record after the FilePass, except its header and the
 * records and bytes left in clear; the key stream runs over every byte of the stream, clear ones too.
 */
function decryptedStream(stream: Buffer, filePass: number, keys: (block: number) => Buffer): Buffer {
  const out = Buffer.from(stream);
  let block = -1;
  let keyStream: Buffer = Buffer.alloc(0);
  const decrypt = (from: number, to: number): void => {
    for (let at = from; at < to; at++) {
      if (Math.floor(at / RC4_BLOCK) !== block) {
        block = Math.floor(at / RC4_BLOCK);
        keyStream = rc4Stream(keys(block), RC4_BLOCK);
      }
      out[at] = out[at]! ^ keyStream[at % RC4_BLOCK]!;
    }
  };
  let at = filePass + 4 + stream.readUInt16LE(filePass + 2);
  while (at + 4 <= stream.length) {
    const type = stream.readUInt16LE(at);
    const end = Math.min(stream.length, at + 4 + stream.readUInt16LE(at + 2));
    if (!CLEAR_RECORDS.has(type)) decrypt(at + 4 + (type === BOUND_SHEET ? BOUND_SHEET_CLEAR_BYTES : 0), end);
    at = end;
  }
  return out;
}

/** The first `length` bytes of RC4's key stream for `key`. */
function rc4Stream(key: Buffer, length: number): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(length);
  for (let n = 0, i = 0, j = 0; n < length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function xorWith(keyStream: Buffer, data: Buffer): Buffer {
  return Buffer.from(data.map((b, i) => b ^ keyStream[i]!));
}
