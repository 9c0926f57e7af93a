import { NodeHtmlMarkdown } from 'node-html-markdown';
import { parse as parseHtml } from 'node-html-parser';
import type { Converter } from '../types';
import { decodeText } from '../text-decoding';
import { normaliseTables } from './html-tables';
import { removeBoilerplate } from './html-boilerplate';

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
  const body = normaliseTables(removeBoilerplate(mainContent(html)).replace(/<img\b[^>]*>/gi, imageAlt));
  const md = translateInChunks(body)
    .trim()
    .replace(/^\|.*\|$/gm, normaliseTableRow);
  return md ? `${md.replace(/\n{3,}/g, '\n\n')}\n` : '';
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
  const withoutHead = html.replace(/<head\b[\s\S]*?<\/head>/i, '');
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
