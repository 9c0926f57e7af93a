import type { Element } from '@xmldom/xmldom';
import type { Converter, DocumentMetadata } from '../../types';
import { ConversionError } from '../../types';
import { SafeZip } from '../../archive/safe-zip';
import { parseXml, type Document } from '../../office-properties';
import { attr, child, children, descendants } from '../../xml-dom';
import type { Block, ListItem } from '../../markdown/model';
import { blocksAsInlineText, renderMarkdown } from '../../markdown/writer';
import { bold, escapeText, imagePlaceholder, italic, link, strike } from '../../markdown/inline';
import { paragraphsToBlocks, renderSlides, type ParagraphModel, type SlideModel } from '../presentation/slides';

interface OdfPackage {
  content: Document;
  meta: Document | undefined;
  /** List style name → whether level 1.. is numbered. */
  numberedLists: Map<string, boolean[]>;
  /** Automatic text style name → emphasis. */
  emphasis: Map<string, { bold: boolean; italic: boolean; strike: boolean }>;
  /** Paragraph style name → its parent style, to find Title / Subtitle paragraphs. */
  parents: Map<string, string>;
}

function openOdf(input: Buffer, label: string): OdfPackage {
  const zip = new SafeZip(input, label);
  const contentXml = zip.textOf('content.xml');
  if (!contentXml) throw new ConversionError('corrupt_file', `The ${label} has no content.xml.`);
  const manifest = zip.textOf('META-INF/manifest.xml') ?? '';
  if (/encryption-data/.test(manifest))
    throw new ConversionError('encrypted_file', `The ${label} is password-protected.`);
  const content = parseXml(contentXml, label);
  const stylesXml = zip.textOf('styles.xml');
  const styleDocs = [content, ...(stylesXml ? [parseXml(stylesXml, label)] : [])];
  const numberedLists = new Map<string, boolean[]>();
  const emphasis = new Map<string, { bold: boolean; italic: boolean; strike: boolean }>();
  const parents = new Map<string, string>();
  for (const doc of styleDocs) {
    for (const st of descendants(doc, 'style')) {
      const parent = attr(st, 'parent-style-name');
      if (parent) parents.set(attr(st, 'name') ?? '', parent);
    }
    for (const ls of descendants(doc, 'list-style')) {
      const levels: boolean[] = [];
      for (const lvl of children(ls))
        levels[Number(attr(lvl, 'level') ?? 1) - 1] = lvl.localName === 'list-level-style-number';
      numberedLists.set(attr(ls, 'name') ?? '', levels);
    }
    for (const st of descendants(doc, 'style')) {
      const tp = child(st, 'text-properties');
      if (!tp) continue;
      emphasis.set(attr(st, 'name') ?? '', {
        bold: /bold|[6-9]00/.test(attr(tp, 'font-weight') ?? ''),
        italic: (attr(tp, 'font-style') ?? '') === 'italic',
        strike: (attr(tp, 'text-line-through-style') ?? 'none') !== 'none',
      });
    }
  }
  const metaXml = zip.textOf('meta.xml');
  return { content, meta: metaXml ? parseXml(metaXml, label) : undefined, numberedLists, emphasis, parents };
}

function odfMetadata(pkg: OdfPackage, pages: number): DocumentMetadata {
  const text = (local: string): string => descendants(pkg.meta, local)[0]?.textContent?.trim() ?? '';
  return { title: text('title'), author: text('creator') || text('initial-creator'), page_count: pages };
}

/** Inline Markdown of a paragraph-like element: spans with emphasis, links, spaces, tabs, notes. */
function inline(el: Element, pkg: OdfPackage, notes: string[]): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3) {
      out += escapeText((n.nodeValue ?? '').replace(/\s+/g, ' '));
      continue;
    }
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    switch (e.localName) {
      case 's':
        out += ' '.repeat(Number(attr(e, 'c') ?? 1));
        break;
      case 'tab':
        out += ' ';
        break;
      case 'line-break':
        out += ' ';
        break;
      case 'span': {
        const style = pkg.emphasis.get(attr(e, 'style-name') ?? '');
        let md = inline(e, pkg, notes);
        if (style?.bold) md = bold(md);
        if (style?.italic) md = italic(md);
        if (style?.strike) md = strike(md);
        out += md;
        break;
      }
      case 'a':
        out += link(inline(e, pkg, notes), attr(e, 'href') ?? '');
        break;
      case 'note': {
        const body = child(e, 'note-body');
        notes.push(
          children(body)
            .map((p) => inline(p, pkg, notes))
            .join(' ')
            .trim(),
        );
        out += `[^${notes.length}]`;
        break;
      }
      case 'frame':
        out += frameText(e, pkg, notes);
        break;
      case 'bookmark':
      case 'bookmark-start':
      case 'bookmark-end':
      case 'soft-page-break':
        break;
      default:
        out += inline(e, pkg, notes);
    }
  }
  return out;
}

function frameText(frame: Element, pkg: OdfPackage, notes: string[]): string {
  const box = child(frame, 'text-box');
  if (box)
    return children(box)
      .map((p) => inline(p, pkg, notes))
      .join(' ');
  if (child(frame, 'image')) {
    const alt =
      child(frame, 'desc')?.textContent || child(frame, 'title')?.textContent || attr(frame, 'name') || 'image';
    return imagePlaceholder(alt);
  }
  return '';
}

/** Body elements of a text document (or a cell, a section, a list item) to blocks. */
function textBlocks(container: Element | undefined, pkg: OdfPackage, notes: string[]): Block[] {
  return elementBlocks(children(container), pkg, notes);
}

function elementBlocks(elements: Element[], pkg: OdfPackage, notes: string[]): Block[] {
  const blocks: Block[] = [];
  for (const el of elements) {
    switch (el.localName) {
      case 'h':
        blocks.push({
          type: 'heading',
          level: Number(attr(el, 'outline-level') ?? 1),
          text: inline(el, pkg, notes).trim(),
        });
        break;
      case 'p': {
        const text = inline(el, pkg, notes).trim();
        const role = titleRole(attr(el, 'style-name') ?? '', pkg);
        if (text && role) blocks.push({ type: 'heading', level: role, text });
        else if (text) blocks.push({ type: 'paragraph', text });
        break;
      }
      case 'list':
        blocks.push(listBlock(el, pkg, notes, attr(el, 'style-name') ?? '', 0));
        break;
      case 'table':
        blocks.push(...tableBlocks(el, pkg, notes));
        break;
      case 'section':
      case 'text-content':
        blocks.push(...textBlocks(el, pkg, notes));
        break;
      default:
        break;
    }
  }
  return blocks;
}

/** 1 for a Title paragraph, 2 for a Subtitle (directly or through parent styles), else 0. */
function titleRole(style: string, pkg: OdfPackage): number {
  for (let name = style, hops = 0; name && hops < 8; name = pkg.parents.get(name) ?? '', hops++) {
    if (name === 'Title') return 1;
    if (name === 'Subtitle') return 2;
  }
  return 0;
}

function listBlock(list: Element, pkg: OdfPackage, notes: string[], styleName: string, depth: number): Block {
  const name = attr(list, 'style-name') ?? styleName;
  const ordered = pkg.numberedLists.get(name)?.[depth] ?? false;
  const items: ListItem[] = [];
  for (const item of children(list).filter((c) => c.localName === 'list-item' || c.localName === 'list-header')) {
    const parts: string[] = [];
    const nested: Block[] = [];
    for (const c of children(item)) {
      if (c.localName === 'list') nested.push(listBlock(c, pkg, notes, name, depth + 1));
      else if (c.localName === 'p' || c.localName === 'h') parts.push(inline(c, pkg, notes).trim());
      else nested.push(...elementBlocks([c], pkg, notes));
    }
    if (parts.length === 0 && nested.length === 1 && nested[0]!.type === 'list' && items.length) {
      const prev = items[items.length - 1]!;
      prev.children = [...(prev.children ?? []), ...nested];
      continue;
    }
    items.push({ text: parts.join(' '), children: nested.length ? nested : undefined });
  }
  return { type: 'list', ordered, items };
}

/** A table with spanned cells repeated across their span (covered cells take the spanning value). */
function tableBlocks(table: Element, pkg: OdfPackage, notes: string[]): Block[] {
  const rows: string[][] = [];
  const rowEls = descendants(table, 'table-row').filter((r) => nearestTable(r) === table);
  const above: string[] = [];
  for (const tr of rowEls) {
    const row: string[] = [];
    for (const cell of children(tr).filter(
      (c) => c.localName === 'table-cell' || c.localName === 'covered-table-cell',
    )) {
      const repeat = Math.min(Number(attr(cell, 'number-columns-repeated') ?? 1), 64);
      const covered = cell.localName === 'covered-table-cell';
      const text = covered
        ? (row[row.length - 1] ?? above[row.length] ?? '')
        : blocksAsInlineText(textBlocks(cell, pkg, notes));
      for (let k = 0; k < repeat; k++) row.push(text);
    }
    while (row.length && row[row.length - 1] === '') row.pop();
    rows.push(row);
    row.forEach((v, i) => (above[i] = v));
  }
  const nonEmpty = rows.filter((r) => r.some((c) => c !== ''));
  return nonEmpty.length ? [{ type: 'table', rows: nonEmpty }] : [];
}

function nearestTable(el: Element): Element | undefined {
  let p = el.parentNode as Element | null;
  while (p && p.localName !== 'table') p = p.parentNode as Element | null;
  return p ?? undefined;
}

function withNotes(blocks: Block[], notes: string[]): Block[] {
  return notes.length
    ? [...blocks, ...notes.map((n, i): Block => ({ type: 'raw', markdown: `[^${i + 1}]: ${n}` }))]
    : blocks;
}

/** ODT: headings, nested lists (numbered from their list styles), tables, emphasis, links, notes, frames. */
export const odtConverter: Converter = {
  name: 'odt',
  extensions: ['odt'],
  async convert(input) {
    const pkg = openOdf(input, 'ODT file');
    const body = descendants(pkg.content, 'text')[0] ?? descendants(pkg.content, 'body')[0];
    const notes: string[] = [];
    const blocks = textBlocks(body, pkg, notes);
    const pages = Number(attr(descendants(pkg.meta, 'document-statistic')[0], 'page-count') ?? 0);
    return { markdown: renderMarkdown(withNotes(blocks, notes)), metadata: odfMetadata(pkg, pages) };
  },
};

/** ODP: one section per page (slide): title frame as heading, outline frames as lists, tables, notes. */
export const odpConverter: Converter = {
  name: 'odp',
  extensions: ['odp'],
  async convert(input) {
    const pkg = openOdf(input, 'ODP file');
    const notes: string[] = [];
    const slides: SlideModel[] = descendants(pkg.content, 'page').map((page) => {
      let title = '';
      const blocks: Block[] = [];
      for (const frame of children(page).flatMap((c) => (c.localName === 'g' ? children(c) : [c]))) {
        const cls = attr(frame, 'class') ?? '';
        const box = child(frame, 'text-box') ?? (frame.localName === 'custom-shape' ? frame : undefined);
        const table = child(frame, 'table');
        if (table) {
          blocks.push(...tableBlocks(table, pkg, notes));
        } else if (box) {
          const paragraphs = frameParagraphs(
            box,
            pkg,
            notes,
            cls === 'outline' || cls === 'subtitle' ? 'bullet' : 'none',
            0,
          );
          if (cls === 'title' && !title) title = paragraphs.map((p) => p.text).join(' ');
          else blocks.push(...paragraphsToBlocks(paragraphs));
        } else if (child(frame, 'image')) {
          blocks.push({ type: 'paragraph', text: frameText(frame, pkg, notes) });
        }
      }
      const notesEl = child(page, 'notes');
      const noteText = notesEl
        ? descendants(notesEl, 'frame')
            .filter((f) => attr(f, 'class') === 'notes')
            .flatMap((f) => descendants(f, 'p').map((p) => inline(p, pkg, notes).trim()))
        : [];
      return { title, name: attr(page, 'name'), blocks, notes: noteText };
    });
    return {
      markdown: renderMarkdown(withNotes(renderSlides(slides), notes)),
      metadata: odfMetadata(pkg, slides.length),
    };
  },
};

function frameParagraphs(
  box: Element,
  pkg: OdfPackage,
  notes: string[],
  bullet: ParagraphModel['bullet'],
  level: number,
): ParagraphModel[] {
  const out: ParagraphModel[] = [];
  for (const c of children(box)) {
    if (c.localName === 'p' || c.localName === 'h') out.push({ text: inline(c, pkg, notes), level, bullet });
    else if (c.localName === 'list') {
      const ordered = pkg.numberedLists.get(attr(c, 'style-name') ?? '')?.[level] ?? false;
      for (const item of children(c))
        out.push(
          ...frameParagraphs(
            item,
            pkg,
            notes,
            ordered ? 'number' : 'bullet',
            c === box ? level : level + (out.length && bullet !== 'none' ? 1 : 0),
          ),
        );
    } else if (c.localName === 'list-item') out.push(...frameParagraphs(c, pkg, notes, bullet, level));
  }
  return out;
}
