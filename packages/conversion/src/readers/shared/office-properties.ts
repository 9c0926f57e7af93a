import { DOMParser, type Document } from '@xmldom/xmldom';
import type { SafeZip } from '../../archive/safe-zip';
import { assertNoEntityDeclarations } from '../../archive/safe-zip';

/** Title and author from an OOXML package's docProps/core.xml; page count from docProps/app.xml. */
export function ooxmlProperties(zip: SafeZip): { title: string; author: string; pages?: number; slides?: number } {
  // Each part is parsed once, not once per field.
  const part = (name: string): Document | undefined => {
    const xml = zip.textOf(name);
    return xml ? parseXml(xml, 'document properties') : undefined;
  };
  const core = part('docProps/core.xml');
  const app = part('docProps/app.xml');
  const text = (doc: Document | undefined, local: string): string => {
    const el = doc?.getElementsByTagNameNS('*', local)[0];
    return el?.textContent?.trim() ?? '';
  };
  const count = (name: string): number | undefined => {
    const v = text(app, name);
    return /^\d+$/.test(v) ? Number(v) : undefined;
  };
  return { title: text(core, 'title'), author: text(core, 'creator'), pages: count('Pages'), slides: count('Slides') };
}

/** Parses an XML part of an untrusted document: entity declarations are refused first. */
export type { Document };

export function parseXml(xml: string, label: string): Document {
  assertNoEntityDeclarations(xml, label);
  return new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
}
