import { decodeXML } from 'entities';
import type { SafeZip } from '../../archive/safe-zip';

/** `name="value"` pairs of a start tag's attributes. */
const ATTRIBUTE = /([\w:-]+)\s*=\s*"([^"]*)"/g;

function attributes(tag: string): Map<string, string> {
  return new Map([...tag.matchAll(ATTRIBUTE)].map(([, name, value]) => [name!, value!]));
}

/**
 * The names of an ODS workbook's hidden sheets (SheetJS does not read them): a sheet is hidden by
 * its table style's `table:display="false"`. Read from the start tags alone, so a large sheet's
 * cells are scanned once and never built into a tree.
 */
export function odsHiddenSheets(zip: SafeZip): Set<string> {
  const hidden = new Set<string>();
  const xml = zip.textOf('content.xml');
  if (!xml) return hidden;
  const hiddenStyles = new Set<string>();
  for (const [, style, props] of xml.matchAll(/<style:style\s([^>]*)>\s*<style:table-properties\s([^>]*)>/g)) {
    const s = attributes(style!);
    if (s.get('style:family') === 'table' && attributes(props!).get('table:display') === 'false') {
      hiddenStyles.add(s.get('style:name') ?? '');
    }
  }
  if (!hiddenStyles.size) return hidden;
  for (const [, tag] of xml.matchAll(/<table:table\s([^>]*)>/g)) {
    const t = attributes(tag!);
    if (hiddenStyles.has(t.get('table:style-name') ?? '')) hidden.add(decodeXML(t.get('table:name') ?? ''));
  }
  return hidden;
}
