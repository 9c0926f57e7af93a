import type { Block, Inline, InlineContent, ListItem, Note } from '../../../document/model';
import { htmlToBlocks, type NoteNumbering } from '../html/reader';
import { footnoteId, readInline } from './inline-tokens';
import { parseMarkdown, TOO_DEEP } from './parser';

/** A Markdown document as the model, and the YAML or TOML front matter it opened with (without its fences). */
export interface MarkdownDocument {
  blocks: Block[];
  frontMatter?: string;
}

/** A container being filled while the flat token stream is walked (no recursion, any depth the parser allows). */
type Container =
  | { kind: 'blocks'; blocks: Block[]; finish: (blocks: Block[]) => void }
  | { kind: 'list'; items: ListItem[]; finish: (items: ListItem[]) => void }
  | { kind: 'notes'; notes: Note[]; finish: (notes: Note[]) => void }
  | { kind: 'table'; rows: InlineContent[][]; headerRows: number; inHead: boolean };

/** A GFM task list item's box at the start of its text: `[ ]`, `[x]` or `[X]` and a space. */
const TASK_BOX = /^\[([ xX])\][ \t]+/;

/** TOML front matter (Hugo, Zola): `+++` lines around it, at the very start of the file. */
const TOML_FRONT_MATTER = /^\+\+\+[ \t]*\n([\s\S]*?)\n\+\+\+[ \t]*(?:\n|$)/;

/** Markdown source as document blocks: Markdown read by markdown-it, raw HTML blocks by the HTML reader. */
export function readMarkdown(source: string): MarkdownDocument {
  const doc: MarkdownDocument = { blocks: [] };
  // markdown-it's plugin knows YAML's `---` fences only: TOML's would be read as a paragraph of its lines.
  const toml = TOML_FRONT_MATTER.exec(source);
  if (toml) {
    doc.frontMatter = toml[1]!;
    doc.blocks.push({ type: 'raw', markdown: `+++\n${toml[1]!}\n+++` });
    source = source.slice(toml[0].length);
  }
  const tokens = parseMarkdown(source);
  const numbering: NoteNumbering = { next: 1 };
  const stack: Container[] = [{ kind: 'blocks', blocks: doc.blocks, finish: () => undefined }];
  const top = (): Container => stack[stack.length - 1]!;
  const add = (block: Block): void => {
    const c = top();
    if (c.kind === 'blocks') c.blocks.push(block);
  };
  const openBlocks = (finish: (blocks: Block[]) => void): void => {
    stack.push({ kind: 'blocks', blocks: [], finish });
  };
  const pop = (): void => {
    const c = stack.pop();
    if (stack.length === 0)
      stack.push(c!); // a stray close token never removes the document itself
    else if (c?.kind === 'blocks') c.finish(c.blocks);
    else if (c?.kind === 'list') c.finish(c.items);
    else if (c?.kind === 'notes') c.finish(c.notes);
    else if (c?.kind === 'table' && c.rows.length) add({ type: 'table', rows: c.rows, headerRows: c.headerRows });
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const inline = (): Inline[] => (tokens[i + 1]?.type === 'inline' ? readInline(tokens[i + 1]!.children ?? []) : []);
    const c = top();
    switch (t.type) {
      case 'front_matter':
        if (typeof t.meta === 'string') {
          doc.frontMatter = t.meta;
          // The author's metadata stays at the top, as written: it is source text, not something to render.
          add({ type: 'raw', markdown: `---\n${t.meta}\n---` });
        }
        break;
      case 'heading_open':
        add({ type: 'heading', level: Number(t.tag.slice(1)), text: inline() });
        break;
      case 'paragraph_open': {
        const text = inline();
        if (text.length) add({ type: 'paragraph', text });
        break;
      }
      case 'math_block':
      case 'math_block_eqno':
        add({ type: 'paragraph', text: [{ type: 'math', tex: t.content, display: true }] });
        break;
      case 'fence':
        add({ type: 'code', text: t.content, language: t.info.trim().split(/\s+/)[0] || undefined });
        break;
      case TOO_DEEP:
        if (t.content.trim()) add({ type: 'paragraph', text: [{ type: 'text', text: t.content.trim() }] });
        break;
      case 'code_block':
        add({ type: 'code', text: t.content });
        break;
      case 'hr':
        add({ type: 'rule' });
        break;
      case 'html_block': {
        // HTML split by blank lines is one element to a browser: read the run of blocks as one.
        let html = t.content;
        while (tokens[i + 1]?.type === 'html_block') html += `\n${tokens[++i]!.content}`;
        for (const block of htmlToBlocks(html, numbering)) add(block);
        break;
      }
      case 'blockquote_open':
        openBlocks((blocks) => {
          if (blocks.length) add({ type: 'quote', blocks });
        });
        break;
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = t.type === 'ordered_list_open';
        const start = Number(t.attrGet('start') ?? 1);
        stack.push({
          kind: 'list',
          items: [],
          finish: (items) => {
            if (items.length) add({ type: 'list', ordered, ...(ordered && start !== 1 ? { start } : {}), items });
          },
        });
        break;
      }
      case 'list_item_open': {
        const list = c.kind === 'list' ? c : undefined;
        openBlocks((blocks) => list?.items.push(listItem(blocks)));
        break;
      }
      case 'footnote_block_open':
        stack.push({
          kind: 'notes',
          notes: [],
          finish: (notes) => {
            if (notes.length) add({ type: 'notes', notes });
          },
        });
        break;
      case 'footnote_open': {
        const notes = c.kind === 'notes' ? c : undefined;
        const id = footnoteId(t);
        openBlocks((blocks) => notes?.notes.push({ id, blocks }));
        break;
      }
      case 'table_open':
        stack.push({ kind: 'table', rows: [], headerRows: 0, inHead: false });
        break;
      case 'thead_open':
      case 'thead_close':
        if (c.kind === 'table') c.inHead = t.type === 'thead_open';
        break;
      case 'tr_open':
        if (c.kind === 'table') {
          c.rows.push([]);
          if (c.inHead) c.headerRows++;
        }
        break;
      case 'th_open':
      case 'td_open':
        if (c.kind === 'table') c.rows[c.rows.length - 1]?.push(inline());
        break;
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close':
      case 'footnote_close':
      case 'footnote_block_close':
      case 'table_close':
        pop();
        break;
    }
  }
  while (stack.length > 1) pop();
  return doc;
}

/** A list item from its blocks: the first paragraph is its text (a task box read off it), the rest its children. */
function listItem(blocks: Block[]): ListItem {
  const [first, ...rest] = blocks;
  if (first?.type !== 'paragraph') return blocks.length ? { text: [], children: blocks } : { text: [] };
  const item: ListItem = rest.length ? { text: first.text, children: rest } : { text: first.text };
  const lead = first.text[0];
  const box = lead?.type === 'text' ? TASK_BOX.exec(lead.text) : null;
  if (box && lead?.type === 'text') {
    item.checked = box[1] !== ' ';
    item.text = [{ type: 'text', text: lead.text.slice(box[0].length) }, ...first.text.slice(1)];
  }
  return item;
}
