import type { ConversionOutput, DocumentMetadata } from '../../types';
import type { Block, Inline, InlineContent, ListItem, Note } from '../../document/model';
import { ESCAPABLE, escapeLineStart, renderInline, type InlineOptions } from './inline';
import { compactForTokens } from '../../filters/optimize-tokens';

export interface WriterOptions extends InlineOptions {
  /**
   * Fewer tokens for the same content (the API's `optimize_tokens`): table rows without padding,
   * bold that only decorates a heading or a header cell dropped, runs of spaces in text as one,
   * short paragraphs repeated 3 or more times (running headers, footers) kept once, `raw`
   * Markdown through the string pass. docs/decisions.md says what is decided where.
   */
  optimizeTokens?: boolean;
}

/** Renders the document model as GitHub-flavoured Markdown: the one place that lays out blocks. */
export function renderMarkdown(blocks: Block[], options: WriterOptions = {}): string {
  const out = renderBlocks(options.optimizeTokens ? compactForTokens(blocks, options) : blocks, options);
  return out ? `${out.replace(/\n{3,}/g, '\n\n').trimEnd()}\n` : '';
}

/** A converter's result from its document model: the Markdown, and the model for token optimisation. */
export function documentOutput(blocks: Block[], metadata: DocumentMetadata): ConversionOutput {
  return { markdown: renderMarkdown(blocks), blocks, metadata };
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
      const text = renderInline(block.text, true, opts).trim();
      if (!text) return '';
      const level = Math.min(6, Math.max(1, Math.round(block.level)));
      return `${'#'.repeat(level)} ${text}`;
    }
    case 'paragraph':
      return renderInline(block.text, false, opts)
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
      return block.markdown.trim();
  }
}

/** `[^id]: ` and the note's first paragraph; its further blocks indented beneath it. */
function renderNote(note: Note, opts: WriterOptions): string {
  const [first, ...rest] = note.blocks;
  const lead = first?.type === 'paragraph' ? renderInline(first.text, true, opts).trim() : '';
  const more = (lead ? rest : note.blocks)
    .map((b) => renderBlock(b, opts))
    .filter((s) => s.trim() !== '')
    .map((s) => s.replace(/^(?=.)/gm, '    '));
  return [`[^${note.id.replace(/[\s\]^]+/g, '-')}]: ${lead}`.trimEnd(), ...more].join('\n\n');
}

function renderList(items: ListItem[], ordered: boolean, start: number, opts: WriterOptions): string {
  return items
    .map((item, i) => {
      const marker = ordered ? `${start + i}.` : '-';
      const indent = ' '.repeat(marker.length + 1);
      const box = item.checked === undefined ? '' : item.checked ? '[x] ' : '[ ] ';
      const first = box + escapeLineStart(renderInline(item.text, true, opts).trim());
      const children = (item.children ?? [])
        .map((b) => renderBlock(b, opts))
        .filter((s) => s.trim() !== '')
        .map((s) => s.replace(/^(?=.)/gm, indent));
      const body = [`${marker} ${first}`.trimEnd(), ...children];
      return children.length && item.children?.some((c) => c.type !== 'list') ? body.join('\n\n') : body.join('\n');
    })
    .join('\n');
}

/** What a cell's text needs rewritten: a pipe, a whitespace other than one inner space. */
const CELL_REWRITE = /\||[^\S ]| \s|^ | $/;

/** A GFM table cell: one line, pipes escaped. */
export function tableCell(content: InlineContent, opts: WriterOptions = {}): string {
  // Most cells (numbers, words) come out as they went in: skip the passes below for them.
  const plain = plainText(content);
  if (plain !== undefined && !CELL_REWRITE.test(plain)) return plain;
  const text = renderInline(content, true, opts);
  return text.replace(/\r?\n/g, '<br>').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** The text of a cell that is one text node with nothing to escape (as it will be written), or none. */
function plainText(content: Inline[]): string | undefined {
  if (!content.length) return '';
  const only = content.length === 1 ? content[0] : undefined;
  return only?.type === 'text' && !ESCAPABLE.test(only.text) ? only.text : undefined;
}

function renderTable(rows: InlineContent[][], headerRows: number, opts: WriterOptions): string {
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  if (width === 0 || rows.length === 0) return '';
  // Token optimisation drops the padding: `|a|b|` and `|-|-|` are the same table.
  const [open, sep, close, rule] = opts.optimizeTokens ? ['|', '|', '|', '-'] : ['| ', ' | ', ' |', '---'];
  const line = (cells: readonly InlineContent[]): string => {
    const out = new Array<string>(width);
    for (let i = 0; i < width; i++) out[i] = tableCell(cells[i] ?? [], opts);
    return `${open}${out.join(sep)}${close}`;
  };
  // GFM has exactly one header row: further header rows become body rows; none gets an empty header.
  const lines = [
    line(headerRows > 0 ? rows[0]! : []),
    `${open}${new Array<string>(width).fill(rule).join(sep)}${close}`,
  ];
  for (let r = headerRows > 0 ? 1 : 0; r < rows.length; r++) lines.push(line(rows[r]!));
  return lines.join('\n');
}

function renderCode(text: string, language = ''): string {
  const longest = (text.match(/`{3,}/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}
