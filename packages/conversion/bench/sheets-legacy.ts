import { strToU8, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';
import { pptFile, record, textAtom } from '../test/ppt97';

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
  const all = Array.from({ length: slides }, (_, i) =>
    record(0x03ee, Buffer.concat([textAtom(0, `Slide ${i}`), textAtom(1, 'Point one\rPoint two')]), true),
  );
  return pptFile(Buffer.concat(all));
}

export const benchCases = [
  { label: 'xls 20k rows', ext: 'xls', units: { count: 20, name: '1k rows' }, make: async () => sheet('xls') },
  { label: 'ods 20k rows', ext: 'ods', units: { count: 20, name: '1k rows' }, make: async () => sheet('ods') },
  { label: 'odp 200 slides', ext: 'odp', units: { count: 200, name: 'slide' }, make: async () => odp(200) },
  { label: 'ppt 200 slides', ext: 'ppt', units: { count: 200, name: 'slide' }, make: async () => ppt(200) },
];
