import type { Block, ListItem, Note } from '../../document/model';
import { composedText } from '../../document/composed-text';
import { escapeLineStart } from './escaping';
import { inertRawMarkdown } from './inert-markup';
import { noteLabel, renderInline } from './inline';
import { isSafeTarget } from './link-targets';
import { renderTable } from './table';
import type { WriterOptions } from './types';

export type { WriterOptions } from './types';

/**
 * Renders the document model as GitHub-flavoured Markdown: the one place that lays out blocks
 * (pandoc's Writers/Markdown.hs; inline content in ./inline.ts, tables in ./table.ts, escaping in
 * ./escaping.ts). Runs of blank lines are written as one, except inside a top-level `raw` block,
 * which is text passed through as it is (a .txt file) but for what would read as HTML or a link
 * (./inert-markup.ts): no output of this writer can carry script.
 */
export function renderMarkdown(blocks: Block[], options: WriterOptions = {}): string {
  return joinBlocks(blocks, writeBlocks(blocks, options));
}

/**
 * Each top-level block as the writer writes it, before blocks are joined: the pages and chunks
 * writers cut the document between blocks, and write each block once for all of them.
 */
export function writeBlocks(blocks: Block[], options: WriterOptions = {}): string[] {
  return blocks.map((b) =>
    composedText(b.type === 'raw' ? inertRawMarkdown(b.markdown.trim()) : renderBlock(b, options)),
  );
}

/** `blocks` written as one document from their `writeBlocks` texts: what renderMarkdown(blocks) writes. */
export function joinBlocks(blocks: Block[], written: string[]): string {
  return joinWritten(written, (i) => blocks[i]!.type === 'raw');
}

/**
 * Top-level blocks' `writeBlocks` texts joined as one document, knowing of each block only
 * whether it is `raw` (passed through as it is): what joinBlocks writes. Page ranges written
 * apart are joined this way from their texts alone.
 */
export function joinWritten(written: string[], isRaw: (index: number) => boolean): string {
  const parts: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    const md = run
      .filter((s) => s.trim() !== '')
      .join('\n\n')
      .replace(/\n{3,}/g, '\n\n');
    if (md.trim() !== '') parts.push(parts.length ? md.replace(/^\n+/, '') : md);
    run = [];
  };
  written.forEach((text, i) => {
    if (!isRaw(i)) {
      run.push(text);
      return;
    }
    flush();
    if (text) {
      if (parts.length) parts[parts.length - 1] = parts[parts.length - 1]!.replace(/\n+$/, '');
      parts.push(text);
    }
  });
  flush();
  const out = parts.join('\n\n');
  return out ? `${out.trimEnd()}\n` : '';
}

/**
 * A block written alone: what `joinBlocks([block], [written])` writes, up to white space at its
 * ends (trim both). The chunks writer takes each block's text this way, one string pass per block.
 */
export function blockAlone(block: Block, written: string): string {
  // Most blocks have no run of blank lines: a plain search is cheaper than a regexp pass per block.
  return block.type === 'raw' || !written.includes('\n\n\n') ? written : written.replace(/\n{3,}/g, '\n\n');
}

function renderBlocks(blocks: Block[], opts: WriterOptions): string {
  return blocks
    .map((b) => renderBlock(b, opts))
    .filter((s) => s.trim() !== '')
    .join('\n\n');
}

function renderBlock(block: Block, opts: WriterOptions): string {
  switch (block.type) {
    case 'heading': {
      const text = renderInline(block.text, true).trim();
      if (!text) return '';
      const level = Math.min(6, Math.max(1, Math.round(block.level)));
      return `${'#'.repeat(level)} ${text}`;
    }
    case 'paragraph':
      return renderInline(block.text, false)
        .split('\n')
        .map((line) => escapeLineStart(line))
        .join('\n')
        .trim();
    case 'list':
      return renderList(block.items, block.ordered, block.start ?? 1, opts);
    case 'table':
      return renderTable(block.rows, block.headerRows ?? 1, opts);
    case 'code':
      return renderCode(block.text, block.language);
    case 'quote': {
      const inner = renderBlocks(block.blocks, opts)
        .replace(/\n{3,}/g, '\n\n')
        .trimEnd();
      if (!inner) return '';
      return inner
        .trimEnd()
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    }
    case 'rule':
      return '---';
    case 'notes':
      return block.notes.map((n) => renderNote(n, opts)).join('\n\n');
    case 'raw':
      return inertRawMarkdown(block.markdown.trim());
  }
}

/** `[^id]: ` and the note's first paragraph; its further blocks indented beneath it. */
function renderNote(note: Note, opts: WriterOptions): string {
  const [first, ...rest] = note.blocks;
  const lead = first?.type === 'paragraph' ? notLinkDefinition(renderInline(first.text, true).trim()) : '';
  const more = (lead ? rest : note.blocks)
    .map((b) => renderBlock(b, opts))
    .filter((s) => s.trim() !== '')
    .map((s) => s.replace(/^(?=.)/gm, '    '));
  return [`[^${noteLabel(note.id)}]: ${lead}`.trimEnd(), ...more].join('\n\n');
}

/** A word joiner: invisible, and not a character an address may start with. */
const WORD_JOINER = '\u2060';

/**
 * A renderer without footnotes reads `[^1]: word` as a link definition to `word`: a note that
 * starts with an address no link may have starts with a word joiner, so that it is none.
 */
function notLinkDefinition(lead: string): string {
  // A definition is the address alone, or followed by a title (`"…"`, `'…'`, `(…)`): other words after it make none.
  const m = /^(\S+)(?:\s+(\S))?/.exec(lead);
  const definition = m && (m[2] === undefined || /["'(]/.test(m[2]));
  return definition && !isSafeTarget(m[1]!.replace(/^<|>$/g, '')) ? WORD_JOINER + lead : lead;
}

/**
 * CommonMark numbers an ordered list from 0 to 999,999,999: a start a file gives outside that (a
 * damaged or hostile DOC/DOCX numbering definition) would turn the items into paragraphs, so the
 * list counts from 1 instead.
 */
const LAST_LIST_NUMBER = 999_999_999;

function renderList(items: ListItem[], ordered: boolean, givenStart: number, opts: WriterOptions): string {
  const start =
    Number.isSafeInteger(givenStart) && givenStart >= 0 && givenStart + items.length - 1 <= LAST_LIST_NUMBER
      ? givenStart
      : 1;
  return items
    .map((item, i) => {
      const marker = ordered ? `${start + i}.` : '-';
      const indent = ' '.repeat(marker.length + 1);
      const box = item.checked === undefined ? '' : item.checked ? '[x] ' : '[ ] ';
      const first = box + escapeLineStart(renderInline(item.text, true).trim());
      const children = (item.children ?? [])
        .map((b) => renderBlock(b, opts))
        .filter((s) => s.trim() !== '')
        .map((s) => s.replace(/^(?=.)/gm, indent));
      const body = [`${marker} ${first}`.trimEnd(), ...children];
      return children.length && item.children?.some((c) => c.type !== 'list') ? body.join('\n\n') : body.join('\n');
    })
    .join('\n');
}

/** A fence's language: a name, never what would end the fence line early (a backtick) or spill into it. */
const LANGUAGE = /^[\w#+.-]+$/;

function renderCode(text: string, language = ''): string {
  if (!LANGUAGE.test(language)) language = '';
  const longest = (text.match(/`{3,}/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}
