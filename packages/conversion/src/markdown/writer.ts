import type { Block, ListItem } from './model';
import { escapeLineStart } from './inline';

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
      const text = oneLine(block.text);
      if (!text) return '';
      const level = Math.min(6, Math.max(1, Math.round(block.level)));
      return `${'#'.repeat(level)} ${text}`;
    }
    case 'paragraph':
      return block.text
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
    case 'raw':
      return block.markdown.trim();
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

function renderList(items: ListItem[], ordered: boolean, start: number): string {
  return items
    .map((item, i) => {
      const marker = ordered ? `${start + i}.` : '-';
      const indent = ' '.repeat(marker.length + 1);
      const first = escapeLineStart(oneLine(item.text)).replace(/^\\/, '\\');
      const children = (item.children ?? [])
        .map(renderBlock)
        .filter((s) => s.trim() !== '')
        .map((s) => s.replace(/^(?=.)/gm, indent));
      const body = [`${marker} ${first}`.trimEnd(), ...children];
      return children.length && item.children?.some((c) => c.type !== 'list') ? body.join('\n\n') : body.join('\n');
    })
    .join('\n');
}

/** A GFM table cell: one line, pipes escaped. */
export function tableCell(text: string): string {
  return text.replace(/\r?\n/g, '<br>').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function renderTable(rows: string[][], headerRows: number): string {
  const width = rows.reduce((n, r) => Math.max(n, r.length), 0);
  if (width === 0 || rows.length === 0) return '';
  const norm = rows.map((r) => Array.from({ length: width }, (_, i) => tableCell(r[i] ?? '')));
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  // GFM has exactly one header row: further header rows become body rows; none gets an empty header.
  const header = headerRows > 0 ? norm[0]! : Array.from({ length: width }, () => '');
  const body = headerRows > 0 ? norm.slice(1) : norm;
  return [line(header), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n');
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
        case 'code':
          return b.text;
        case 'list':
          return b.items
            .map((it, i) =>
              `${b.ordered ? `${(b.start ?? 1) + i}.` : '-'} ${it.text} ${blocksAsInlineText(it.children ?? [])}`.trim(),
            )
            .join(' ');
        case 'table':
          return b.rows.map((r) => r.filter(Boolean).join(' ')).join(' ');
        case 'quote':
          return blocksAsInlineText(b.blocks);
        case 'raw':
          return b.markdown;
        case 'rule':
          return '';
      }
    })
    .filter((s) => s.trim())
    .join(' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}
