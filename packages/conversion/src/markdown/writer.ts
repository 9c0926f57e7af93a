import type { Block, InlineContent, ListItem, Note } from './model';
import { escapeLineStart, renderInline } from './inline';

/** Renders the document model as GitHub-flavoured Markdown: the one place that lays out blocks. */
export function renderMarkdown(blocks: Block[]): string {
  const out = blocks
    .map(renderBlock)
    .filter((s) => s.trim() !== '')
    .join('\n\n');
  return out ? `${out.replace(/\n{3,}/g, '\n\n').trimEnd()}\n` : '';
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case 'heading': {
      const text = renderInline(block.text, true).trim();
      if (!text) return '';
      const level = Math.min(6, Math.max(1, Math.round(block.level)));
      return `${'#'.repeat(level)} ${text}`;
    }
    case 'paragraph':
      return renderInline(block.text)
        .split('\n')
        .map((line) => escapeLineStart(line))
        .join('\n')
        .trim();
    case 'list':
      return renderList(block.items, block.ordered, block.start ?? 1);
    case 'table':
      return renderTable(block.rows, block.headerRows ?? 1);
    case 'code':
      return renderCode(block.text, block.language);
    case 'quote':
      return renderMarkdown(block.blocks)
        .trimEnd()
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    case 'rule':
      return '---';
    case 'notes':
      return block.notes.map(renderNote).join('\n\n');
    case 'raw':
      return block.markdown.trim();
  }
}

/** `[^id]: ` and the note's first paragraph; its further blocks indented beneath it. */
function renderNote(note: Note): string {
  const [first, ...rest] = note.blocks;
  const lead = first?.type === 'paragraph' ? renderInline(first.text, true).trim() : '';
  const more = (lead ? rest : note.blocks)
    .map(renderBlock)
    .filter((s) => s.trim() !== '')
    .map((s) => s.replace(/^(?=.)/gm, '    '));
  return [`[^${note.id.replace(/[\s\]^]+/g, '-')}]: ${lead}`.trimEnd(), ...more].join('\n\n');
}

function renderList(items: ListItem[], ordered: boolean, start: number): string {
  return items
    .map((item, i) => {
      const marker = ordered ? `${start + i}.` : '-';
      const indent = ' '.repeat(marker.length + 1);
      const first = escapeLineStart(renderInline(item.text, true).trim());
      const children = (item.children ?? [])
        .map(renderBlock)
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
export function tableCell(content: InlineContent): string {
  // Most cells (numbers, words) come out as they went in: skip the four passes below for them.
  if (typeof content === 'string' && !CELL_REWRITE.test(content)) return content;
  const text = renderInline(content, true);
  return text.replace(/\r?\n/g, '<br>').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function renderTable(rows: InlineContent[][], headerRows: number): string {
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  if (width === 0 || rows.length === 0) return '';
  const line = (cells: readonly InlineContent[]): string => {
    const out = new Array<string>(width);
    for (let i = 0; i < width; i++) out[i] = tableCell(cells[i] ?? '');
    return `| ${out.join(' | ')} |`;
  };
  // GFM has exactly one header row: further header rows become body rows; none gets an empty header.
  const lines = [line(headerRows > 0 ? rows[0]! : []), `| ${new Array<string>(width).fill('---').join(' | ')} |`];
  for (let r = headerRows > 0 ? 1 : 0; r < rows.length; r++) lines.push(line(rows[r]!));
  return lines.join('\n');
}

function renderCode(text: string, language = ''): string {
  const longest = (text.match(/`{3,}/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

/** Blocks flattened to one line of inline Markdown (table cells, notes): lists keep their markers. */
export function blocksAsInlineText(blocks: Block[]): string {
  return blocks
    .map((b): string => {
      switch (b.type) {
        case 'paragraph':
        case 'heading':
          return renderInline(b.text, true);
        case 'code':
          return b.text;
        case 'list':
          return b.items
            .map((it, i) =>
              `${b.ordered ? `${(b.start ?? 1) + i}.` : '-'} ${renderInline(it.text, true)} ${blocksAsInlineText(it.children ?? [])}`.trim(),
            )
            .join(' ');
        case 'table':
          return b.rows
            .map((r) =>
              r
                .map((c) => renderInline(c, true))
                .filter(Boolean)
                .join(' '),
            )
            .join(' ');
        case 'quote':
          return blocksAsInlineText(b.blocks);
        case 'raw':
          return b.markdown;
        case 'notes':
          return b.notes.map((n) => blocksAsInlineText(n.blocks)).join(' ');
        case 'rule':
          return '';
      }
    })
    .filter((s) => s.trim())
    .join(' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}
