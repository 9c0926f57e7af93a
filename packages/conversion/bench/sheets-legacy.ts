import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';
import * as XLSX from 'xlsx';

/** Large xls, ods, odp and ppt documents for `pnpm bench`. */
function sheet(bookType: 'xls' | 'ods'): Buffer {
  const rows: unknown[][] = [['id', 'name', 'amount']];
  for (let i = 0; i < 20_000; i++) rows.push([i, `Name ${i}`, i * 1.25]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Data');
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
}

function odp(slides: number): Buffer {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';
  const pages = Array.from(
    { length: slides },
    (_, i) =>
      `<draw:page draw:name="p${i}"><draw:frame presentation:class="title"><draw:text-box><text:p>Slide ${i}</text:p></draw:text-box></draw:frame>` +
      `<draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>Point one</text:p></text:list-item><text:list-item><text:p>Point two</text:p></text:list-item></text:list></draw:text-box></draw:frame></draw:page>`,
  ).join('');
  return Buffer.from(
    zipSync({
      'content.xml': strToU8(
        `<office:document-content ${ns}><office:body><office:presentation>${pages}</office:presentation></office:body></office:document-content>`,
      ),
    }),
  );
}

function ppt(slides: number): Buffer {
  const rec = (type: number, body: Buffer, container = false): Buffer => {
    const h = Buffer.alloc(8);
    h.writeUInt16LE(container ? 0x0f : 0, 0);
    h.writeUInt16LE(type, 2);
    h.writeUInt32LE(body.length, 4);
    return Buffer.concat([h, body]);
  };
  const kind = (k: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(k);
    return b;
  };
  const all = Array.from({ length: slides }, (_, i) =>
    rec(
      0x03ee,
      Buffer.concat([
        rec(0x0f9f, kind(0)),
        rec(0x0fa0, Buffer.from(`Slide ${i}`, 'utf16le')),
        rec(0x0f9f, kind(1)),
        rec(0x0fa0, Buffer.from('Point one\rPoint two', 'utf16le')),
      ]),
      true,
    ),
  );
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'PowerPoint Document', Buffer.concat(all));
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

export const benchCases = [
  { label: 'xls 20k rows', ext: 'xls', units: { count: 20, name: '1k rows' }, make: async () => sheet('xls') },
  { label: 'ods 20k rows', ext: 'ods', units: { count: 20, name: '1k rows' }, make: async () => sheet('ods') },
  { label: 'odp 200 slides', ext: 'odp', units: { count: 200, name: 'slide' }, make: async () => odp(200) },
  { label: 'ppt 200 slides', ext: 'ppt', units: { count: 200, name: 'slide' }, make: async () => ppt(200) },
];
