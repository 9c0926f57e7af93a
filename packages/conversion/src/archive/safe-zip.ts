import { unzipSync, strFromU8 } from 'fflate';
import { ConversionError } from '../types';

/** Limits that keep a zip bomb from exhausting memory; declared sizes are also hard caps on inflation. */
export const ZIP_LIMITS = {
  maxEntries: 20_000,
  maxTotalInflatedBytes: 1024 * 1024 * 1024,
  maxEntryInflatedBytes: 512 * 1024 * 1024,
  maxCompressionRatio: 200,
  /**
   * Entries inflating to less than this are not judged by their ratio: the declared size caps what
   * they cost, and pictures in metafile or bitmap form (EMF, WMF, BMP) legitimately pack 500:1.
   */
  ratioCheckedAboveBytes: 16 * 1024 * 1024,
} as const;

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  size: number;
}

/**
 * A zip archive (docx, xlsx, pptx, odt, ods, odp, epub) read lazily and defensively: the central
 * directory is checked first (entry count, declared sizes, ratios) and each entry is inflated
 * into a buffer of its declared size, so actual output can never exceed what was declared.
 */
export class SafeZip {
  private readonly entries = new Map<string, ZipEntryInfo>();

  constructor(
    private readonly bytes: Uint8Array,
    label = 'archive',
  ) {
    let total = 0;
    try {
      unzipSync(bytes, {
        filter: (file) => {
          const info = { name: file.name, compressedSize: file.size, size: file.originalSize };
          this.entries.set(file.name, info);
          total += info.size;
          if (this.entries.size > ZIP_LIMITS.maxEntries) throw bomb(label, 'too many entries');
          if (info.size > ZIP_LIMITS.maxEntryInflatedBytes) throw bomb(label, `entry ${file.name} is too large`);
          if (
            info.size > ZIP_LIMITS.ratioCheckedAboveBytes &&
            info.size / Math.max(1, info.compressedSize) > ZIP_LIMITS.maxCompressionRatio
          ) {
            throw bomb(label, `entry ${file.name} has a suspicious compression ratio`);
          }
          return false;
        },
      });
    } catch (err) {
      if (err instanceof ConversionError) throw err;
      throw new ConversionError('corrupt_file', `The ${label} is not a valid zip package: ${(err as Error).message}.`);
    }
    if (total > ZIP_LIMITS.maxTotalInflatedBytes) throw bomb(label, 'its contents inflate beyond the limit');
  }

  /** Entry names in archive order. */
  list(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  info(name: string): ZipEntryInfo | undefined {
    return this.entries.get(name);
  }

  /** The entry's bytes, or undefined when absent. */
  bytesOf(name: string): Uint8Array | undefined {
    if (!this.entries.has(name)) return undefined;
    try {
      return unzipSync(this.bytes, { filter: (file) => file.name === name })[name];
    } catch (err) {
      throw new ConversionError('corrupt_file', `The entry ${name} could not be inflated: ${(err as Error).message}.`);
    }
  }

  /** The entry as text (BOM stripped), or undefined when absent: UTF-8, or UTF-16 where it is (see `xmlText`). */
  textOf(name: string): string | undefined {
    const data = this.bytesOf(name);
    return data === undefined ? undefined : xmlText(data);
  }
}

/**
 * A part's text: UTF-8, or UTF-16 when it opens with a UTF-16 BOM or with `<` in 16 bits, as XML
 * parts may be written (OPC allows both; .NET writers save UTF-16). The BOM is stripped.
 */
export function xmlText(data: Uint8Array): string {
  const wide = utf16Order(data);
  const text = wide ? new TextDecoder(wide).decode(data) : strFromU8(data);
  return text.replace(/^\uFEFF/, '');
}

/** The byte order of a part in UTF-16, by its BOM or its first character `<`; none for UTF-8. */
export function utf16Order(data: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (data.length < 2) return undefined;
  if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0x3c && data[1] === 0x00)) return 'utf-16le';
  if ((data[0] === 0xfe && data[1] === 0xff) || (data[0] === 0x00 && data[1] === 0x3c)) return 'utf-16be';
  return undefined;
}

function bomb(label: string, why: string): ConversionError {
  return new ConversionError('too_large', `The ${label} was refused: ${why} (possible zip bomb).`);
}

/**
 * XML from untrusted documents must not declare entities (billion laughs, external entities).
 * Office and ODF parts never need them, so any DOCTYPE with ENTITY is refused.
 */
export function assertNoEntityDeclarations(xml: string, label: string): void {
  if (/<!DOCTYPE[^>[]*\[[\s\S]*?<!ENTITY/i.test(xml) || /<!ENTITY/i.test(xml.slice(0, 65536))) {
    throw new ConversionError('corrupt_file', `The ${label} declares XML entities, which are not allowed.`);
  }
}
