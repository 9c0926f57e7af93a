import CFB from 'cfb';
import iconv from 'iconv-lite';
import { ConversionError } from '../../types';

/** Opens an OLE compound file (Word 97, PowerPoint 97) or fails with a clear error. */
export function openCompoundFile(input: Buffer, label: string): CFB.CFB$Container {
  if (input.length < 512 || input.readUInt32LE(0) !== 0xe011cfd0) {
    throw new ConversionError('corrupt_file', `The ${label} is not an OLE compound document.`);
  }
  try {
    return CFB.read(input, { type: 'buffer' });
  } catch (err) {
    throw new ConversionError('corrupt_file', `The ${label} could not be read: ${(err as Error).message}`);
  }
}

/**
 * A stream at the top of the compound file. By its bare name, cfb finds the first stream so named
 * anywhere, which can be an embedded object's (a Word document pasted into another keeps its own
 * WordDocument and 1Table streams under ObjectPool). An entry written with a storage's type but
 * holding data (damaged directories) still counts, as cfb's own lookup lets it.
 */
export function streamOf(cfb: CFB.CFB$Container, name: string): Buffer | undefined {
  const entry = topLevelEntry(cfb, name);
  return entry?.content ? Buffer.from(entry.content as Uint8Array) : undefined;
}

/** The entry `streamOf` reads, without copying it: how the sniffer tells a Word, Excel or PowerPoint host from what it embeds. */
export function topLevelEntry(cfb: CFB.CFB$Container, name: string): CFB.CFB$Entry | undefined {
  const root = cfb.FullPaths[0]?.toUpperCase() ?? '';
  const wanted = `${root}${name.toUpperCase()}`;
  const paths = cfb.FullPaths.map((p) => p.toUpperCase());
  let entry = cfb.FileIndex[paths.indexOf(wanted)];
  if (!entry) {
    const storage = cfb.FileIndex[paths.indexOf(`${wanted}/`)];
    if (storage?.content?.length) entry = storage;
  }
  return entry?.content ? entry : undefined;
}

/** Title, author and counts from the \x05SummaryInformation property set. */
export function summaryInformation(cfb: CFB.CFB$Container): {
  title: string;
  author: string;
  pages?: number;
  slides?: number;
} {
  const data = streamOf(cfb, '\u0005SummaryInformation');
  const out: { title: string; author: string; pages?: number; slides?: number } = { title: '', author: '' };
  if (!data || data.length < 48) return out;
  try {
    const sectionOffset = data.readUInt32LE(44);
    const count = data.readUInt32LE(sectionOffset + 4);
    let codepage = 1252;
    const props = new Map<number, number>();
    for (let i = 0; i < Math.min(count, 64); i++) {
      props.set(
        data.readUInt32LE(sectionOffset + 8 + i * 8),
        sectionOffset + data.readUInt32LE(sectionOffset + 12 + i * 8),
      );
    }
    const cp = props.get(1);
    if (cp !== undefined && data.readUInt16LE(cp) === 2) codepage = data.readUInt16LE(cp + 4);
    const str = (id: number): string => {
      const at = props.get(id);
      if (at === undefined) return '';
      const type = data.readUInt16LE(at);
      const len = data.readUInt32LE(at + 4);
      if (type === 0x1e) {
        const enc = codepage === 1200 ? 'utf16le' : iconv.encodingExists(`cp${codepage}`) ? `cp${codepage}` : 'cp1252';
        return iconv
          .decode(data.subarray(at + 8, at + 8 + len), enc)
          .replace(/\0+$/, '')
          .trim();
      }
      if (type === 0x1f)
        return data
          .subarray(at + 8, at + 8 + len * 2)
          .toString('utf16le')
          .replace(/\0+$/, '')
          .trim();
      return '';
    };
    const int = (id: number): number | undefined => {
      const at = props.get(id);
      return at !== undefined && data.readUInt16LE(at) === 3 ? data.readInt32LE(at + 4) : undefined;
    };
    return { title: str(2), author: str(4), pages: int(14) };
  } catch {
    return out;
  }
}
