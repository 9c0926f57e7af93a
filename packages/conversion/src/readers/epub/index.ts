import path from 'node:path';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { SafeZip } from '../../archive/safe-zip';
import { parseXml } from '../shared/office-properties';
import { attr, descendants } from '../shared/xml-dom';
import { htmlToBlocks, noteIds, readHtml, type BookNotes, type HtmlReadOptions } from '../shared/html/reader';
import { parseHtml } from '../shared/html/dom';
import type { Block, ListItem } from '../../document/model';
import { PictureReader } from '../shared/ocr/pictures';
import { StyledHeadings } from './styled-headings';
import { readClassFonts, type ClassFont } from '../shared/html/class-fonts';

/** EPUB: container.xml → OPF; spine documents in order through the HTML converter; title and creator from the OPF. */
export const epubReader: Reader = {
  name: 'epub',
  async read(input, options) {
    const zip = new SafeZip(input, 'EPUB file');
    const container = zip.textOf('META-INF/container.xml');
    const named = container
      ? attr(descendants(parseXml(container, 'EPUB container'), 'rootfile')[0], 'full-path')
      : undefined;
    const opfPath = named !== undefined && zip.has(named) ? named : packageDocument(zip, named);
    const opfXml = opfPath ? zip.textOf(opfPath) : undefined;
    if (!opfPath || !opfXml) throw new ConversionError('corrupt_file', 'The EPUB file has no package document (OPF).');
    const opf = parseXml(opfXml, 'EPUB package');
    const base = path.posix.dirname(opfPath);
    const resolve = (href: string): string => {
      let decoded = href;
      try {
        decoded = decodeURIComponent(href);
      } catch {
        // A malformed escape is used as written.
      }
      return path.posix.normalize(path.posix.join(base, decoded.replace(/#.*$/, '')));
    };
    // EPUB 2 names its table of contents page in the guide; like the EPUB 3 nav document it repeats
    // the headings. Only a page that is the contents is left out (see isContentsPage).
    const tocPages = new Set(
      descendants(opf, 'reference')
        .filter((r) => /^toc$/i.test(attr(r, 'type') ?? ''))
        .map((r) => resolve(attr(r, 'href') ?? '')),
    );
    const manifest = new Map(
      descendants(opf, 'item').map((item) => [
        attr(item, 'id') ?? '',
        { href: attr(item, 'href') ?? '', props: attr(item, 'properties') ?? '' },
      ]),
    );
    const chapters: Block[][] = [];
    // One note numbering for the book: each chapter's notes continue where the last chapter's ended.
    const numbering = { next: 1 };
    // Enhanced mode reads the text inside the book's pictures (scanned pages, figures with labels).
    const reader = options.enhanced ? new PictureReader() : undefined;
    const pages: { path: string; html: string }[] = [];
    for (const ref of descendants(opf, 'itemref')) {
      if (attr(ref, 'linear') === 'no') continue;
      const item = manifest.get(attr(ref, 'idref') ?? '');
      if (!item || item.props.includes('nav')) continue;
      const chapterPath = resolve(item.href);
      const html = zip.textOf(chapterPath);
      if (html && !(tocPages.has(chapterPath) && isContentsPage(html))) pages.push({ path: chapterPath, html });
    }
    if (encryptedContent(zip, new Set(pages.map((p) => p.path)))) {
      throw new ConversionError('encrypted_file', 'The EPUB file is DRM-protected (its chapters are encrypted).');
    }
    const notes = bookNotes(pages, numbering);
    const stylesheets = descendants(opf, 'item')
      .filter((item) => attr(item, 'media-type') === 'text/css')
      .map((item) => zip.textOf(resolve(attr(item, 'href') ?? '')) ?? '');
    // The book's class rules: a run's weight and slant (LibreOffice's spans) are set there, not by <b> or <i>.
    const classFonts = new Map<string, ClassFont>();
    for (const css of stylesheets) readClassFonts(css, classFonts);
    // Parsed once, here, when the book's classes could mark headings: that rule reads every page first.
    const roots = StyledHeadings.couldMark(classFonts) ? pages.map((p) => parseHtml(p.html)) : undefined;
    const styled = roots ? StyledHeadings.of(classFonts, roots) : undefined;
    for (const [i, { path: chapterPath, html: source }] of pages.entries()) {
      const pageOptions: HtmlReadOptions = {
        dropRelativeLinks: true,
        bookPage: true,
        bookNotes: notes.of(chapterPath),
        classFonts,
        ...(styled ? { styledHeading: (el) => styled.level(el) } : {}),
      };
      const blocks = reader
        ? htmlToBlocks(await withPictureText(source, chapterPath, zip, reader), numbering, pageOptions)
        : roots
          ? readHtml(roots[i]!, numbering, pageOptions)
          : htmlToBlocks(source, numbering, pageOptions);
      // Each spine document is a page.
      const page = chapters.length + 1;
      if (blocks.length) chapters.push(blocks.map((block) => ({ ...block, page })));
    }
    const text = (local: string): string => known(descendants(opf, local)[0]?.textContent);
    // The book's own description of itself leads, as a reader sees it on the cover page and in a
    // library: not its language tag (`en-US`), a code for reading systems that no reader is shown.
    const facts = [
      ['Title', text('title')],
      [
        'Authors',
        descendants(opf, 'creator')
          .map((c) => known(c.textContent))
          .filter(Boolean)
          .join(', '),
      ],
      ['Publisher', text('publisher')],
      [
        'Description',
        text('description')
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ],
    ]
      .filter(([, v]) => v)
      .map(([k, v]): ListItem => ({
        text: [
          { type: 'strong', children: [{ type: 'text', text: `${k}:` }] },
          { type: 'text', text: ` ${v}` },
        ],
      }));
    // The book's facts open its first page.
    const blocks: Block[] = facts.length ? [{ type: 'list', ordered: false, items: facts, page: 1 }] : [];
    return {
      blocks: blocks.concat(...chapters),
      metadata: {
        title: text('title'),
        author: text('creator'),
        page_count: chapters.length,
      },
    };
  },
};

/**
 * A metadata value, trimmed, or '' for the placeholder a writer puts where the author gave none
 * (LibreOffice's "Unknown Title" and "Unknown Author", Calibre's "Unknown"): no reader is told that.
 */
function known(value: string | null | undefined): string {
  const trimmed = value?.trim() ?? '';
  return /^unknown(?: (?:title|author))?$/i.test(trimmed) ? '' : trimmed;
}

/**
 * `path#id` of an address with a file part in the page at `from` (relative to it, the page itself
 * too: `ch1.xhtml#fn1` from ch1.xhtml), or undefined for `#id` alone and addresses out of the book.
 */
function bookAddress(from: string, href: string): string | undefined {
  const hash = href.indexOf('#');
  if (hash <= 0 || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) return undefined;
  let file = href.slice(0, hash);
  try {
    file = decodeURIComponent(file);
  } catch {
    // A malformed escape is used as written.
  }
  return `${path.posix.normalize(path.posix.join(path.posix.dirname(from), file))}#${href.slice(hash + 1)}`;
}

/** A note mark: a link whose `epub:type` or role says it points to a note. */
const NOTE_MARK = /<a\b(?=[^>]*\b(?:epub:type|role)\s*=\s*["'][^"']*\b(?:doc-)?noteref\b)[^>]*>/gi;
/** Any link with an address: a mark when what it points to is a marked note (InDesign's `_idFootnoteLink` has no type). */
const LINK = /<a\b[^>]*\bhref\s*=[^>]*>/gi;
/** A page that marks notes (`epub:type="footnote"`, `role="doc-endnote"`): only its notes can be pointed at. */
const MARKS_NOTES = /\b(?:epub:type|role)\s*=\s*["'][^"']*\b(?:doc-)?(?:foot|end|rear)notes?\b/i;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/**
 * Notes kept in another page of the book than their marks (endnotes files): the note marks found
 * in every page, and the marked notes they point to in the pages read, share one label, given
 * in the order first met (marks usually come first), from the book's note numbering.
 */
function bookNotes(pages: { path: string; html: string }[], numbering: { next: number }) {
  const pointed = new Map<string, Set<string>>();
  const withNotes = new Set(pages.filter((page) => MARKS_NOTES.test(page.html)).map((page) => page.path));
  for (const page of pages) {
    const typed = new Set(page.html.match(NOTE_MARK) ?? []);
    for (const tag of withNotes.size ? (page.html.match(LINK) ?? []) : typed) {
      const match = HREF.exec(tag);
      const address = bookAddress(page.path, match?.[1] ?? match?.[2] ?? '');
      if (!address) continue;
      const file = address.slice(0, address.indexOf('#'));
      if (!typed.has(tag) && !withNotes.has(file)) continue;
      if (!pointed.has(file)) pointed.set(file, new Set());
      pointed.get(file)!.add(address.slice(file.length + 1));
    }
  }
  // Only marks that meet a marked note count: a mark pointing at a plain paragraph stays a link's text.
  const notes = new Set<string>();
  for (const [file, ids] of pointed) {
    const page = pages.find((p) => p.path === file);
    if (!page) continue;
    const marked = noteIds(page.html);
    for (const id of ids) if (marked.has(id)) notes.add(`${file}#${id}`);
  }
  const labels = new Map<string, string>();
  const label = (address: string): string => {
    let found = labels.get(address);
    if (!found) labels.set(address, (found = String(numbering.next++)));
    return found;
  };
  return {
    of(file: string): BookNotes | undefined {
      if (!notes.size) return undefined;
      return {
        refLabel: (href) => {
          const address = bookAddress(file, href);
          return address && notes.has(address) ? label(address) : undefined;
        },
        isOwn: (id) => notes.has(`${file}#${id}`),
        ownLabel: (id) => label(`${file}#${id}`),
      };
    },
  };
}

/**
 * A page the guide names as the contents that is one: its links hold at least as much text as the
 * rest of it. Project Gutenberg's books point the guide into their first document, which holds the
 * title page, the contents and the first chapter; left out whole, the book lost its opening.
 */
function isContentsPage(html: string): boolean {
  const root = parseHtml(html);
  let linked = 0;
  const stack = [root];
  for (let el = stack.pop(); el; el = stack.pop()) {
    if (el.tag === 'a' && el.attrs.href !== undefined) linked += el.prose;
    else for (const child of el.children) if (typeof child !== 'string') stack.push(child);
  }
  return linked >= root.prose;
}

/** The chapter with each local picture's alt text extended by the text OCR reads in it. */
async function withPictureText(
  html: string,
  chapterPath: string,
  zip: SafeZip,
  reader: PictureReader,
): Promise<string> {
  const tags = [...new Set(html.match(/<img\b[^>]*>/gi) ?? [])];
  for (const tag of tags) {
    const src = /\bsrc\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
    const href = src?.[2] ?? src?.[3];
    if (!href || /^[a-z]+:/i.test(href)) continue;
    let part: string;
    try {
      part = path.posix.normalize(path.posix.join(path.posix.dirname(chapterPath), decodeURIComponent(href)));
    } catch {
      continue;
    }
    const text = await reader.text(part, () => zip.bytesOf(part));
    if (!text) continue;
    const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(tag);
    const label = `${alt?.[2] ?? alt?.[3] ?? ''}`.trim() || 'image';
    const escaped = `${label}: ${text}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    html = html.split(tag).join(`<img src="#" alt="${escaped}">`);
  }
  return html;
}

/**
 * Whether chapters are encrypted (DRM): encryption.xml lists chapters read (`chapters`, paths in the
 * archive) whose bytes are not markup. Font obfuscation lists fonts there too, and some books (and
 * conformance test files) list a chapter stored in the clear, or a file outside the reading order;
 * those books read as they are.
 */
function encryptedContent(zip: SafeZip, chapters: Set<string>): boolean {
  const xml = zip.textOf('META-INF/encryption.xml');
  if (!xml) return false;
  return descendants(parseXml(xml, 'EPUB encryption'), 'CipherReference').some((ref) => {
    let name = (attr(ref, 'URI') ?? '').replace(/^\/+/, '');
    try {
      name = decodeURIComponent(name);
    } catch {
      // A malformed escape is looked up as written.
    }
    const bytes = chapters.has(path.posix.normalize(name)) ? zip.bytesOf(name) : undefined;
    return bytes !== undefined && !looksLikeMarkup(bytes);
  });
}

/** Whether a document's first bytes are text opening with `<` (after a byte-order mark and spaces), not ciphertext. */
function looksLikeMarkup(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  // UTF-16 (its byte-order mark, þÿ or ÿþ read as Latin-1): the ASCII it holds, without the zero bytes.
  const text = /^(?:\u00fe\u00ff|\u00ff\u00fe)/.test(head) ? head.slice(2).replace(/\0/g, '') : head;
  return /^(?:\u00ef\u00bb\u00bf)?\s*</.test(text) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
}

/**
 * The package document when the container names none the archive holds (no container.xml, or a
 * path whose case or folder is wrong, as hand-zipped books have): the named path in another case,
 * else the archive's first `.opf`, as e-book readers find it.
 */
function packageDocument(zip: SafeZip, named: string | undefined): string | undefined {
  const opfs = zip.list().filter((name) => /\.opf$/i.test(name));
  const wanted = named?.replace(/^\/+/, '').toLowerCase();
  return opfs.find((name) => name.toLowerCase() === wanted) ?? opfs[0];
}
