/**
 * A standalone XML file's DOCTYPE internal subset, made safe to parse. Patent XML (USPTO), many
 * DocBook files and some JATS files declare entities there; Office and ODF parts never do and keep
 * refusing them (`assertNoEntityDeclarations`). Here nothing is ever loaded (no file, no network):
 * a reference to an internal entity whose value is plain text (no markup, no further reference) is
 * replaced by that text, within a budget; references to any other declared entity (external,
 * unparsed, or one whose value holds markup or references, as in billion laughs) are dropped; once
 * the budget is spent, references are kept as written (as text).
 */

/** Characters that one entity's replacement text may have. */
export const MAX_ENTITY_TEXT = 1024;
/** Characters that all replacements together may add to the file: an entity used a million times stays cheap. */
export const MAX_ENTITY_EXPANSION = 1_000_000;

/** The XML as given to the parser: no internal subset left, entity references replaced or dropped. */
export interface PreparedXml {
  xml: string;
}

const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
/** One general entity declaration (parameter entities, `<!ENTITY % …>`, are not matched). */
const ENTITY_DECLARATION = /<!ENTITY\s+([^\s%]+)\s+(?:"([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC)\b[^>]*)\s*>/g;
/** What the document text holds: CDATA and comments (left alone) or an entity reference. */
const REFERENCE_OR_LITERAL = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|&([A-Za-z_:][\w.:-]*);/g;

export function prepareXml(text: string): PreparedXml {
  const doctype = internalSubset(text);
  if (!doctype) return { xml: text };
  const replacements = declaredEntities(doctype.subset);
  const head = text.slice(0, doctype.start);
  const body = text.slice(doctype.end);
  let budget = MAX_ENTITY_EXPANSION;
  const resolved = body.replace(REFERENCE_OR_LITERAL, (match, name: string | undefined) => {
    if (!name || PREDEFINED.has(name) || !replacements.has(name)) return match;
    const value = replacements.get(name);
    if (value === undefined) return '';
    if (value.length > budget) return `&amp;${name};`;
    budget -= value.length;
    return value;
  });
  return { xml: head + resolved };
}

/**
 * The DOCTYPE declaration when it has an internal subset (`<!DOCTYPE name ext? [ … ]>`): where it
 * starts and ends and the subset's text. Scanned once, left to right: quoted strings and comments
 * may hold `]` or `>`.
 */
function internalSubset(text: string): { start: number; end: number; subset: string } | undefined {
  const start = text.search(/<!DOCTYPE\s/);
  // The DOCTYPE belongs to the prolog: one after the first element is no declaration.
  const firstElement = text.search(/<[A-Za-z_]/);
  if (start < 0 || (firstElement >= 0 && firstElement < start)) return undefined;
  let open = -1;
  for (let i = start + '<!DOCTYPE'.length; i < text.length; i++) {
    const c = text[i];
    if (open < 0 && c === '>') return undefined;
    if (open < 0 && c === '[') open = i + 1;
    else if (c === '"' || c === "'") i = text.indexOf(c, i + 1);
    else if (open >= 0 && text.startsWith('<!--', i)) i = text.indexOf('-->', i + 4);
    else if (open >= 0 && c === ']') {
      const close = /^\s*>/.exec(text.slice(i + 1, i + 1 + CLOSE_SEARCH));
      return close ? { start, end: i + 1 + close[0].length, subset: text.slice(open, i) } : undefined;
    }
    // An unclosed string or comment: no subset this reader can read.
    if (i < 0) return undefined;
  }
  return undefined;
}

/** White space allowed between the subset's `]` and the declaration's `>`. */
const CLOSE_SEARCH = 256;

/**
 * Declared general entities: name → replacement text (escaped for use in text or an attribute) when
 * the value is plain text, `undefined` when a reference to it is to be dropped. The first
 * declaration of a name wins, as in XML.
 */
function declaredEntities(subset: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const m of subset.replace(/<!--[\s\S]*?-->/g, '').matchAll(ENTITY_DECLARATION)) {
    const name = m[1]!;
    if (out.has(name)) continue;
    const value = m[2] ?? m[3];
    out.set(name, value !== undefined && isPlainText(value) ? escapeForXml(value) : undefined);
  }
  return out;
}

/** No markup and no reference other than a character reference: nothing to expand further. */
function isPlainText(value: string): boolean {
  return value.length <= MAX_ENTITY_TEXT && !/[<%]/.test(value) && !/&(?!#(?:\d+|x[\da-fA-F]+);)/.test(value);
}

function escapeForXml(value: string): string {
  return value.replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
