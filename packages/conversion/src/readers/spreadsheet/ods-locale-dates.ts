import type { SafeZip } from '../../archive/safe-zip';
import { readWorkbook } from '../shared/sheetjs-read';

const FODS_NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
/** At most this many locale date styles are looked at (LibreOffice writes one or two). */
const MAX_STYLES = 16;

/**
 * The format codes SheetJS gives an ODS's dates in the locale's default format (a date style with
 * `number:format-source="language"`, LibreOffice's short date as typed in its locale), each with the
 * ISO pattern to write instead, as Excel's built-in short date (id 14) and date-time (id 22) are
 * written: `3/14/26` depends on the reader's locale, `2026-03-14` does not. SheetJS keeps no cell's
 * style, only the code it builds from the style, so each such style is handed to SheetJS alone (a
 * one-cell flat ODS) to learn its code.
 */
export function odsLocaleDateFormats(zip: SafeZip): Map<string, string> {
  const formats = new Map<string, string>();
  let seen = 0;
  for (const part of ['styles.xml', 'content.xml']) {
    const xml = zip.textOf(part);
    if (!xml) continue;
    const body = xml.indexOf('<office:body');
    const head = body < 0 ? xml : xml.slice(0, body);
    for (const [style, attrs, inner] of head.matchAll(/<number:date-style\s([^>]*)>([\s\S]*?)<\/number:date-style>/g)) {
      if (!/number:format-source\s*=\s*"language"/.test(attrs!) || ++seen > MAX_STYLES) continue;
      const name = /style:name\s*=\s*"([^"]*)"/.exec(attrs!)?.[1];
      const code = name && sheetJsCode(style, name);
      if (code) formats.set(code, /<number:hours/.test(inner!) ? 'yyyy-mm-dd hh:mm' : 'yyyy-mm-dd');
    }
  }
  return formats;
}

/** The format code SheetJS builds for the date style `style` (named `name`). */
function sheetJsCode(style: string, name: string): string | undefined {
  const fods =
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${FODS_NAMESPACES} office:mimetype="application/vnd.oasis.opendocument.spreadsheet">` +
    `<office:automatic-styles>${style}<style:style style:name="probe" style:family="table-cell" style:data-style-name="${name}"/></office:automatic-styles>` +
    '<office:body><office:spreadsheet><table:table table:name="S"><table:table-row>' +
    '<table:table-cell table:style-name="probe" office:value-type="date" office:date-value="2026-03-14"><text:p>1</text:p></table:table-cell>' +
    '</table:table-row></table:table></office:spreadsheet></office:body></office:document>';
  try {
    const sheet = readWorkbook(fods, { type: 'string', cellNF: true }).Sheets.S;
    const z = sheet?.A1?.z;
    return typeof z === 'string' ? z : undefined;
  } catch {
    return undefined;
  }
}
