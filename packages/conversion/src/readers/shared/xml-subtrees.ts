import { Parser } from 'htmlparser2';
import { decodeXML } from 'entities';
import { assertNoEntityDeclarations } from '../../archive/safe-zip';

/** An element kept as plain data: its local name, attributes by local name (first wins) and child elements. */
export interface XmlRecord {
  local: string;
  attrs: Readonly<Record<string, string>>;
  children: XmlRecord[];
}

/**
 * The subtrees rooted at elements with one of `roots`' local names, in document order, read in one
 * streaming pass (htmlparser2) without building a DOM of the rest. For lookup parts read as tables
 * (a DOCX's styles and numbering), whose DOM cost more than the document body: Word's styles.xml
 * carries hundreds of latent styles nothing reads. Prefixes are dropped as xml-dom's helpers
 * ignore them; attribute values are normalised and decoded as an XML parser does (a raw tab or
 * line break is a space, `&#10;` a line break). Text content is not kept, and a root nested in a
 * kept subtree is a child there, not a subtree of its own.
 */
export function xmlSubtrees(xml: string, label: string, roots: ReadonlySet<string>): XmlRecord[] {
  assertNoEntityDeclarations(xml, label);
  const found: XmlRecord[] = [];
  const open: XmlRecord[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const local = localName(name);
        const parent = open[open.length - 1];
        const inside = parent !== undefined && parent !== SKIPPED;
        if (!inside && !roots.has(local)) {
          open.push(SKIPPED);
          return;
        }
        const record: XmlRecord = { local, attrs: attributesByLocalName(attribs), children: [] };
        (inside ? parent.children : found).push(record);
        open.push(record);
      },
      onclosetag() {
        open.pop();
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.end(xml);
  return found;
}

/** Placeholder on the open-element stack for elements outside every kept subtree. */
const SKIPPED: XmlRecord = { local: '', attrs: {}, children: [] };

/** What XML turns into a space in an attribute value (after xmldom's line-ending normalisation: CR LF is one). */
const LINE_BREAK_OR_TAB = /\r[\n\u0085]|[\t\n\r\u0085\u2028\u2029]/g;

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1);
}

function attributesByLocalName(attribs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name in attribs) {
    const local = localName(name);
    if (!(local in out)) out[local] = decodeXML(attribs[name]!.replace(LINE_BREAK_OR_TAB, ' '));
  }
  return out;
}

/** The first child element with this local name. */
export function recordChild(record: XmlRecord | undefined, local: string): XmlRecord | undefined {
  return record?.children.find((c) => c.local === local);
}

/** The child elements with this local name. */
export function recordChildren(record: XmlRecord | undefined, local: string): XmlRecord[] {
  return record ? record.children.filter((c) => c.local === local) : [];
}

/** An attribute by local name, whatever its prefix. */
export function recordAttr(record: XmlRecord | undefined, local: string): string | undefined {
  return record?.attrs[local];
}
