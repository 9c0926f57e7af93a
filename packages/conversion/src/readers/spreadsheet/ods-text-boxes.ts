import { decodeXML } from 'entities';
import type { SafeZip } from '../../archive/safe-zip';
import { text, type Block } from '../../document/model';

/**
 * A sheet name, a text box (`draw:text-box`), or a drawn shape that holds paragraphs of its own
 * (ODF 1.2, 10.3: a rectangle, an ellipse, a custom shape… with text typed in it).
 */
const SHEET_OR_SHAPE =
  /<table:table\s[^>]*?table:name="([^"]*)"|<draw:text-box\b[^>]*>([\s\S]*?)<\/draw:text-box>|<draw:(custom-shape|rect|ellipse|circle|polygon|regular-polygon|path|caption)\b[^>]*[^/]>([\s\S]*?)<\/draw:\3>/g;

/** A paragraph's text, spaces and tabs as spaces, tags dropped. */
function paragraphText(inner: string): string {
  return decodeXML(inner.replace(/<text:(?:s|tab|line-break)\b[^>]*\/>/g, ' ').replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text typed in an ODS sheet's text boxes and shapes, by sheet name, a paragraph per
 * paragraph: SheetJS reads cells only. Read from content.xml's text, so a large sheet's cells are
 * never built into a tree.
 */
export function odsTextBoxes(zip: SafeZip): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  const xml = zip.textOf('content.xml');
  if (!xml || !/<draw:(?:text-box|custom-shape|rect|ellipse|circle|polygon|regular-polygon|path|caption)\b/.test(xml))
    return out;
  let sheet = '';
  for (const m of xml.matchAll(SHEET_OR_SHAPE)) {
    if (m[1] !== undefined) {
      sheet = decodeXML(m[1]);
      continue;
    }
    const inner = m[2] ?? m[4] ?? '';
    const paragraphs = [...inner.matchAll(/<text:[ph]\b[^>]*?(?:\/>|>([\s\S]*?)<\/text:[ph]>)/g)]
      .map((p) => paragraphText(p[1] ?? ''))
      .filter(Boolean);
    if (!paragraphs.length) continue;
    out.set(sheet, [
      ...(out.get(sheet) ?? []),
      ...paragraphs.map((p): Block => ({ type: 'paragraph', text: [text(p)] })),
    ]);
  }
  return out;
}
