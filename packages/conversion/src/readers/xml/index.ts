import { XMLValidator } from 'fast-xml-parser';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { decodeText, normaliseNewlines } from '../shared/text-decoding';
import { text as plain, type Block } from '../../document/model';
import { child, children, descendants } from '../shared/xml-dom';
import { htmlToBlocks, readHtml } from '../shared/html/reader';
import { parseHtml } from '../shared/html/dom';
import { headMetadata } from '../shared/html/head-metadata';
import { prepareXml } from './doctype';
import { documentVocabulary } from './vocabulary';
import { readDocBook } from './docbook';
import { readJats } from './jats';
import { readTei } from './tei';

/**
 * XML: checked for well-formedness; feeds read as a list of entries, document vocabularies (JATS,
 * DocBook, TEI, XHTML) as documents, anything else fenced as-is. Entities declared in the DOCTYPE
 * are never loaded and never expanded recursively (`doctype.ts`).
 */
export const xmlReader: Reader = {
  name: 'xml',
  async read(input) {
    const text = normaliseNewlines(decodeText(input)).trim();
    if (!text) return { blocks: [], metadata: { title: '', author: '', page_count: 1 } };
    const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
    if (valid !== true) {
      throw new ConversionError(
        'corrupt_file',
        `The XML file is not well-formed: ${valid.err.msg} (line ${valid.err.line}).`,
      );
    }
    const prepared = prepareXml(text);
    const doc = parseDocumentXml(prepared.xml);
    const feed = feedBlocks(doc);
    if (feed) return { blocks: feed.blocks, metadata: { title: feed.title, author: '', page_count: 1 } };
    const root = doc.documentElement;
    const vocabulary = root ? documentVocabulary(root, doctypeOf(text)) : undefined;
    if (root && vocabulary === 'xhtml') {
      const page = parseHtml(prepared.xml);
      return { blocks: readHtml(page), metadata: headMetadata(page) };
    }
    if (root && vocabulary) {
      const read = vocabulary === 'jats' ? readJats : vocabulary === 'docbook' ? readDocBook : readTei;
      const { blocks, title, author } = read({ doc, root });
      return { blocks, metadata: { title, author, page_count: 1 } };
    }
    const title = /<title(?:\s[^>]*)?>([^<]{1,500})<\/title>/i.exec(text)?.[1]?.trim() ?? '';
    return { blocks: [{ type: 'code', language: 'xml', text }], metadata: { title, author: '', page_count: 1 } };
  },
};

/** RSS 2.0, RSS 1.0 (RDF) and Atom feeds read as what they are: a titled list of entries, not raw XML. */
function feedBlocks(doc: Document): { blocks: Block[]; title: string } | undefined {
  const root = doc.documentElement;
  if (!root || (root.localName !== 'rss' && root.localName !== 'feed' && root.localName !== 'RDF')) return undefined;
  // RSS 2.0 nests its items in the channel; RSS 1.0 (RDF) sets them beside it; Atom has no channel.
  const channel = root.localName === 'feed' ? root : child(root, 'channel');
  // Other RDF/XML (a FOAF profile, a catalogue record) is data, not a feed.
  if (root.localName === 'RDF' && !channel) return undefined;
  const text = (el: unknown, name: string): string => child(el as never, name)?.textContent?.trim() ?? '';
  const title = text(channel, 'title');
  const blocks: Block[] = [];
  if (title) blocks.push({ type: 'heading', level: 1, text: [plain(title)] });
  const about = text(channel, 'description') || text(channel, 'subtitle');
  if (about) blocks.push({ type: 'paragraph', text: [plain(about)] });
  const entries = root.localName === 'feed' ? children(root, 'entry') : descendants(root, 'item');
  // One note numbering for the feed, so notes in different entries never share a label.
  const numbering = { next: 1 };
  for (const entry of entries) {
    const heading = text(entry, 'title');
    const href = text(entry, 'link') || (child(entry, 'link')?.getAttribute('href') ?? '');
    blocks.push({
      type: 'heading',
      level: 2,
      text: href ? [{ type: 'link', url: href, children: [plain(heading || href)] }] : [plain(heading)],
    });
    const author = entryAuthor(entry);
    if (author) blocks.push({ type: 'paragraph', text: [plain(author)] });
    const date = text(entry, 'pubDate') || text(entry, 'updated') || text(entry, 'published') || text(entry, 'date');
    if (date) blocks.push({ type: 'paragraph', text: [{ type: 'emphasis', children: [plain(date)] }] });
    const full = text(entry, 'encoded') || entryText(entry, 'content');
    const summary = text(entry, 'description') || entryText(entry, 'summary');
    // A summary beside the full text is often its own teaser: kept, unless it is an excerpt (its opening words are the full text's).
    const shown = full ? [summary, full] : [summary];
    const excerpt = words(summary.split(ELLIPSIS)[0] ?? '')
      .split(' ')
      .slice(0, EXCERPT_WORDS)
      .join(' ');
    for (const body of shown) {
      if (!body || (body === summary && full && words(full).includes(excerpt))) continue;
      blocks.push(
        ...(/<[a-z]/i.test(body)
          ? htmlToBlocks(body, numbering)
          : [{ type: 'paragraph' as const, text: [plain(body)] }]),
      );
    }
  }
  return { blocks, title };
}

/** The file parsed once its DOCTYPE subset is made safe (`prepareXml`): nothing is loaded or expanded here. */
function parseDocumentXml(xml: string): Document {
  return new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
}

/** The DOCTYPE declaration's name and identifiers (`article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"`). */
function doctypeOf(text: string): string {
  return /<!DOCTYPE\s([^[>]*)/.exec(text.slice(0, DOCTYPE_HEAD))?.[1] ?? '';
}

/** How far into the file the DOCTYPE is looked for: it comes before the root element. */
const DOCTYPE_HEAD = 4096;

/** Opening words of a feed entry's summary that, found in its full text, make the summary an excerpt of it. */
const EXCERPT_WORDS = 12;
/** Where an excerpt was cut (`…`, `...`, WordPress's `[&#8230;]`): what follows is no longer the full text's. */
const ELLIPSIS = /…|\.\.\.|&#8230;|&hellip;/;

/**
 * An Atom text construct: its markup when `type="xhtml"` (XHTML elements inside it, whose text
 * alone runs paragraphs and list items together), else its text (escaped HTML or plain).
 */
function entryText(entry: Element, name: string): string {
  const el = child(entry, name);
  if (!el) return '';
  if (el.getAttribute('type') !== 'xhtml') return el.textContent?.trim() ?? '';
  const serializer = new XMLSerializer();
  return children(el)
    .map((node) => serializer.serializeToString(node))
    .join('')
    .trim();
}

/** An entry's authors: Atom's `<author><name>`, RSS's `<author>` or Dublin Core's `<dc:creator>`. */
function entryAuthor(entry: Element): string {
  const names = [...children(entry, 'author'), ...children(entry, 'creator')].map((el) =>
    (child(el, 'name')?.textContent ?? el.textContent ?? '').replace(/\s+/g, ' ').trim(),
  );
  return [...new Set(names.filter(Boolean))].join(', ');
}

/** A text's words, markup and spacing aside, to tell whether one text repeats another. */
function words(textOrHtml: string): string {
  return textOrHtml
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[#\w]+;/g, ' ')
    .replace(/\W+/gu, ' ')
    .trim()
    .toLowerCase();
}
