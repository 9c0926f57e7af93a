import { NodeHtmlMarkdown } from 'node-html-markdown';
import { HTMLElement, parse as parseHtml } from 'node-html-parser';
import type { Converter } from '../types';
import { decodeText } from '../text-decoding';
import { normaliseTables } from './html-tables';
import { removeBoilerplate } from './html-boilerplate';
import { capHtmlDepth } from '../nesting-limits';

const translator = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  maxConsecutiveNewlines: 2,
  useInlineLinks: true,
  ignore: ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'form', 'button'],
});

/** html, htm: the main content as Markdown (tables, lists, code, links); title and author from the head. */
export const htmlConverter: Converter = {
  name: 'html',
  extensions: ['html', 'htm'],
  async convert(input) {
    const html = decodeHtml(input);
    const markdown = htmlToMarkdown(html);
    return {
      markdown,
      metadata: { title: headTitle(html), author: metaContent(html, 'author'), page_count: 1 },
    };
  },
};

/** HTML fragment or document to Markdown; shared by every format whose content is HTML (EPUB, mammoth). */
export function htmlToMarkdown(html: string): string {
  const body = normaliseTables(
    normaliseSemantics(removeBoilerplate(mainContent(capHtmlDepth(html)))).replace(/<img\b[^>]*>/gi, imageAlt),
  );
  const md = translateInChunks(body)
    .trim()
    .replace(/^\|.*\|$/gm, normaliseTableRow);
  return md ? `${md.replace(/\n{3,}/g, '\n\n')}\n` : '';
}

/** Code languages named in class attributes: `language-py`, `lang-js`, `highlight-source-rust`, `brush: sql`. */
const LANGUAGE_CLASS = [
  /\blang(?:uage)?-([\w+#-]+)/i,
  /\bhighlight-source-([\w+#-]+)/i,
  /\bhighlight-([\w+#-]+)/i,
  /\bbrush:\s*([\w+#-]+)/i,
];

/**
 * Rewrites HTML whose meaning node-html-markdown would lose: description lists as nested lists,
 * bare <pre> as code blocks with their language, keyboard/sample text as code, hidden elements
 * dropped, tracking redirects unwrapped to the address they lead to.
 */
function normaliseSemantics(html: string): string {
  if (!/<(dl|pre|kbd|samp|tt|var)\b|\shidden\b|display:\s*none|href=/i.test(html)) return html;
  // <pre> is parsed as elements (not raw text) so its <code> child and language can be read.
  const root = parseHtml(html, { comment: false, blockTextElements: { script: true, noscript: true, style: true } });
  for (const el of root.querySelectorAll('[hidden], [style*="display:none"], [style*="display: none"]')) el.remove();
  for (const dl of root.querySelectorAll('dl').reverse()) dl.replaceWith(descriptionList(dl));
  for (const pre of root.querySelectorAll('pre')) {
    const code = pre.querySelector('code');
    const language = [pre, code, pre.parentNode]
      .flatMap((el) => LANGUAGE_CLASS.map((re) => re.exec(el?.getAttribute?.('class') ?? '')?.[1]))
      .find((l) => l && !/^(none|plain|text|nohighlight)$/i.test(l));
    const text = dedent((code ?? pre).textContent);
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    pre.replaceWith(
      `<pre><code${language ? ` class="language-${language.toLowerCase()}"` : ''}>${escaped}</code></pre>`,
    );
  }
  for (const el of root.querySelectorAll('kbd, samp, tt')) {
    if (!el.closest('pre')) el.replaceWith(`<code>${el.innerHTML}</code>`);
  }
  for (const el of root.querySelectorAll('var')) el.replaceWith(`<em>${el.innerHTML}</em>`);
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    const target = unwrapRedirect(href) ?? href;
    // A script pseudo-link leads nowhere: its text stays, the link goes.
    if (/^\s*javascript:/i.test(target)) a.removeAttribute('href');
    else if (target !== href) a.setAttribute('href', target);
  }
  return root.toString();
}

/** Code text without the blank edge lines and the indentation every line shares (from the HTML source layout). */
function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return Number.isFinite(indent) && indent > 0 ? lines.map((l) => l.slice(indent)).join('\n') : lines.join('\n');
}

/** <dl>: each term a bold list item, its descriptions nested under it. */
function descriptionList(dl: HTMLElement): string {
  const items: string[] = [];
  let open: { term: string; details: string[] } | undefined;
  const flush = (): void => {
    if (!open) return;
    const nested = open.details.length ? `<ul>${open.details.map((d) => `<li>${d}</li>`).join('')}</ul>` : '';
    const term =
      !open.term || /^<(strong|b)\b[^>]*>[\s\S]*<\/\1>$/i.test(open.term) ? open.term : `<strong>${open.term}</strong>`;
    items.push(`<li>${term}${nested}</li>`);
    open = undefined;
  };
  for (const child of dl.childNodes) {
    if (!(child instanceof HTMLElement)) continue;
    const tag = child.tagName?.toLowerCase();
    const nodes = tag === 'div' ? child.childNodes.filter((n): n is HTMLElement => n instanceof HTMLElement) : [child];
    for (const el of nodes) {
      const t = el.tagName?.toLowerCase();
      if (t === 'dt') {
        flush();
        open = { term: el.innerHTML.trim(), details: [] };
      } else if (t === 'dd') {
        open ??= { term: '', details: [] };
        open.details.push(el.innerHTML.trim());
      }
    }
  }
  flush();
  return `<ul>${items.join('')}</ul>`;
}

/** The destination of a search engine's click-tracking link (Bing ck/a, Google /url, DuckDuckGo /l/), if it is one. */
function unwrapRedirect(href: string): string | undefined {
  if (!/^https?:\/\/[^/]*(bing|google|duckduckgo)\./i.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const u = url.searchParams.get('u');
  if (url.pathname.startsWith('/ck/') && u?.startsWith('a1')) {
    const decoded = Buffer.from(u.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/^javascript:/i.test(decoded)) return decoded;
    return /^(https?:\/\/|\/[^/])/.test(decoded) ? new URL(decoded, url.origin).href : undefined;
  }
  const target =
    url.searchParams.get('uddg') ??
    (url.pathname === '/url' ? (url.searchParams.get('q') ?? url.searchParams.get('url')) : null);
  return target && /^https?:\/\//.test(target) ? target : undefined;
}

/** Characters of HTML translated at once: node-html-markdown slows down quadratically on very long input. */
const CHUNK_CHARS = 64 * 1024;

/** Translates top-level blocks in chunks so long documents convert in linear time. */
function translateInChunks(body: string): string {
  if (body.length <= CHUNK_CHARS) return translator.translate(body);
  let container = parseHtml(body, { comment: false });
  for (;;) {
    const elements = container.childNodes.filter((n) => n.nodeType === 1 || n.text.trim() !== '');
    if (elements.length !== 1 || elements[0]!.nodeType !== 1) break;
    container = elements[0] as ReturnType<typeof parseHtml>;
  }
  const parts: string[] = [];
  let chunk = '';
  for (const node of container.childNodes) {
    chunk += node.toString();
    if (chunk.length >= CHUNK_CHARS) {
      parts.push(translator.translate(chunk));
      chunk = '';
    }
  }
  if (chunk) parts.push(translator.translate(chunk));
  return parts.join('\n\n');
}

function decodeHtml(input: Buffer): string {
  const head = input.subarray(0, 2048).toString('latin1');
  const declared = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      return new TextDecoder(declared).decode(input);
    } catch {
      // An unknown label falls through to detection.
    }
  }
  return decodeText(input);
}

function mainContent(html: string): string {
  // XML declarations and doctypes (XHTML, EPUB chapters) are not content.
  const withoutHead = html
    .replace(/<\?xml[\s\S]*?\?>|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')
    .replace(/<head\b[\s\S]*?<\/head>/i, '');
  const main =
    /<main\b[^>]*>([\s\S]*?)<\/main>/i.exec(withoutHead) ?? /<article\b[^>]*>([\s\S]*)<\/article>/i.exec(withoutHead);
  return main?.[1] ?? withoutHead;
}

function imageAlt(tag: string): string {
  const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
  const text = alt?.[2] ?? alt?.[3] ?? '';
  return text ? `<img src="#" alt="${text.replace(/"/g, '&quot;')}">` : '';
}

function headTitle(html: string): string {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '';
  return decodeEntities(raw.replace(/\s+/g, ' ').trim());
}

function metaContent(html: string, name: string): string {
  const re = new RegExp(`<meta[^>]+name=["']${name}["'][^>]*>`, 'i');
  const tag = re.exec(html)?.[0] ?? '';
  return decodeEntities(/content=["']([^"']*)["']/i.exec(tag)?.[1]?.trim() ?? '');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}

/** Table rows as our writer lays them out: one space around each cell, no alignment padding. */
function normaliseTableRow(row: string): string {
  const cells = row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
  if (cells.some((c) => /^:?-+:?$/.test(c)) && cells.every((c) => c === '' || /^:?-+:?$/.test(c))) {
    return `| ${cells.map(() => '---').join(' | ')} |`;
  }
  return `| ${cells.join(' | ')} |`;
}
