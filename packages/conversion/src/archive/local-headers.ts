import { Inflate, zipSync } from 'fflate';
import { ConversionError } from '../types';
import { ZIP_LIMITS } from './safe-zip';

const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = 0x08074b50;
/** The end-of-central-directory record is within this many bytes of the end (22 plus a comment of up to 65535). */
const END_RECORD_REACH = 22 + 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;
const STORED = 0;
const DEFLATED = 8;
/** Inflated in slices of this size, so a member's output is counted (and capped) as it grows. */
const CHUNK = 64 * 1024;

/**
 * A zip package cut short (a download or copy that stopped: no central directory at its end), rebuilt
 * from its local file headers as Apache POI and `unzip -F` read one: every member stored whole before
 * the cut, in order; the member the cut runs through and anything after it are lost. Undefined when the
 * bytes are not a zip without its directory, or when no member survives. The same limits as SafeZip's
 * apply while inflating (each member's output is counted as it grows), so a bomb is refused here too.
 */
export function zipFromLocalHeaders(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== LOCAL_HEADER || hasEndRecord(bytes)) return undefined;
  const members: Record<string, Uint8Array> = {};
  let count = 0;
  let total = 0;
  for (let at = 0; at + 30 <= bytes.length && bytes.readUInt32LE(at) === LOCAL_HEADER;) {
    const flags = bytes.readUInt16LE(at + 6);
    const method = bytes.readUInt16LE(at + 8);
    const declaredCompressed = bytes.readUInt32LE(at + 18);
    const declaredSize = bytes.readUInt32LE(at + 22);
    const nameLength = bytes.readUInt16LE(at + 26);
    const dataStart = at + 30 + nameLength + bytes.readUInt16LE(at + 28);
    if (dataStart > bytes.length) break;
    const name = bytes.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    // With a data descriptor the sizes come after the data: the member runs to the next header.
    const sized = !(flags & FLAG_DESCRIPTOR) || declaredCompressed > 0;
    const dataEnd = sized ? dataStart + declaredCompressed : nextHeader(bytes, dataStart);
    if (dataEnd > bytes.length) break; // the cut runs through this member
    if (++count > ZIP_LIMITS.maxEntries) throw refused('too many entries');
    if (!(flags & FLAG_ENCRYPTED) && !name.endsWith('/')) {
      const data = bytes.subarray(dataStart, dataEnd);
      const cap = Math.min(ZIP_LIMITS.maxEntryInflatedBytes, ZIP_LIMITS.maxTotalInflatedBytes - total);
      const content = method === STORED ? data : method === DEFLATED ? inflateCapped(data, cap, name) : undefined;
      if (content && (!sized || flags & FLAG_DESCRIPTOR || content.length === declaredSize)) {
        total += content.length;
        members[name] = content;
      }
    }
    at = dataEnd;
    if (flags & FLAG_DESCRIPTOR && at + 4 <= bytes.length && bytes.readUInt32LE(at) === DATA_DESCRIPTOR) at += 16;
    else if (flags & FLAG_DESCRIPTOR && sized) at += 12;
    if (at + 4 <= bytes.length && bytes.readUInt32LE(at) !== LOCAL_HEADER) at = nextHeader(bytes, at);
  }
  if (!Object.keys(members).length) return undefined;
  return Buffer.from(zipSync(members, { level: 0 }));
}

function hasEndRecord(bytes: Buffer): boolean {
  const at = bytes.lastIndexOf('PK\u0005\u0006', bytes.length - 22, 'latin1');
  return at >= 0 && at >= bytes.length - END_RECORD_REACH && bytes.readUInt32LE(at) === END_OF_DIRECTORY;
}

/** The offset of the next local file header at or after `from`, or the end. */
function nextHeader(bytes: Buffer, from: number): number {
  const at = bytes.indexOf('PK\u0003\u0004', from, 'latin1');
  return at < 0 ? bytes.length : at;
}

/** A member's inflated bytes, refused past `cap` or past the compression ratio SafeZip allows; undefined if cut short. */
function inflateCapped(data: Uint8Array, cap: number, name: string): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let size = 0;
  const inflate = new Inflate((chunk) => {
    size += chunk.length;
    if (size > cap) throw refused(`entry ${name} is too large`);
    if (size > 1024 * 1024 && size / Math.max(1, data.length) > ZIP_LIMITS.maxCompressionRatio)
      throw refused(`entry ${name} has a suspicious compression ratio`);
    parts.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += CHUNK) {
      inflate.push(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
    }
  } catch (err) {
    if (err instanceof ConversionError) throw err;
    return undefined;
  }
  return Buffer.concat(parts);
}

function refused(why: string): ConversionError {
  return new ConversionError('too_large', `The file was refused: ${why} (possible zip bomb).`);
}
