import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof parseDocument>['children'][number];

/**
 * What an application that renders our Markdown without sanitising it would run: the Markdown is
 * rendered by two common renderers with raw HTML on and no link filter (markdown-it with its
 * `validateLink` opened up, as many set-ups do; marked, which filters nothing), and the HTML is
 * parsed and searched for anything that can run script.
 */

/** Elements that run script, load a document or change where the page's links and forms go. */
const SCRIPT_CAPABLE = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'form',
  'meta',
  'link',
  'style',
  'svg',
  'math',
  'template',
  'portal',
]);

/** Attributes holding an address a browser follows or loads. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'srcdoc',
  'poster',
  'background',
  'lowsrc',
]);

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'ftp:', 'mailto:', 'tel:']);

/** markdown-it as an application would set it up to show everything: raw HTML, and every link kept. */
const markdownIt = (() => {
  const md = new MarkdownIt({ html: true, linkify: true });
  md.validateLink = () => true;
  return md;
})();

/** The HTML a non-sanitising renderer makes of the Markdown, one entry per renderer. */
export function renderings(markdown: string): Array<{ renderer: string; html: string }> {
  return [
    { renderer: 'markdown-it', html: markdownIt.render(markdown) },
    { renderer: 'marked', html: marked.parse(markdown, { async: false, gfm: true }) },
  ];
}

/** The protocol a browser gives the address, resolved against an https page. */
function protocolOf(url: string): string {
  try {
    return new URL(url, 'https://page.example/doc/').protocol;
  } catch {
    return 'invalid:';
  }
}

/** Every way the HTML could run script: a script-capable element, an `on*` attribute, an address of an unsafe scheme. */
export function scriptFindings(html: string): string[] {
  const findings: string[] = [];
  const stack: Node[] = [...parseDocument(html, { decodeEntities: true }).children];
  while (stack.length) {
    const el = stack.pop()!;
    if (!('attribs' in el)) continue;
    const name = el.name.toLowerCase();
    if (SCRIPT_CAPABLE.has(name)) findings.push(`<${name}> element`);
    for (const [attr, value] of Object.entries(el.attribs)) {
      const key = attr.toLowerCase();
      if (key.startsWith('on')) findings.push(`${key} attribute on <${name}>`);
      if (URL_ATTRIBUTES.has(key) && !SAFE_PROTOCOLS.has(protocolOf(value)))
        findings.push(`${key}="${value}" on <${name}>`);
      if (key === 'style' && /expression\s*\(|url\s*\(\s*['"]?\s*(?:javascript|vbscript|data):/i.test(value))
        findings.push(`style="${value}" on <${name}>`);
      if (key === 'http-equiv' && /refresh/i.test(value)) findings.push(`meta refresh`);
    }
    stack.push(...el.children);
  }
  return findings;
}

/** What could run script once the Markdown is rendered by any of the renderers, as `renderer: finding`. */
export function liveScript(markdown: string): string[] {
  return renderings(markdown).flatMap(({ renderer, html }) => scriptFindings(html).map((f) => `${renderer}: ${f}`));
}
