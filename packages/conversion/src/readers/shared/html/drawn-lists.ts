import type { Block, Inline, ListItem } from '../../../document/model';

type Paragraph = Extract<Block, { type: 'paragraph' }>;

/**
 * Bullet glyphs a layout program types before a list item's text (InDesign, Quark, PDF-to-HTML
 * tools, Word's Symbol-font bullet). Dashes are not among them: novels open dialogue with one.
 */
const BULLET = /^[\s\u00a0]*[•◦▪▫■□●○‣⁃∙\uf0b7\uf0a7][\s\u00a0]+/;
/** A number typed before an item's text: `1.` or `1)` and space. */
const NUMBER = /^[\s\u00a0]*(\d{1,4})[.)][\s\u00a0]+/;

/**
 * Paragraphs whose lists were drawn as text (each paragraph starting with a typed bullet, or with
 * numbers that count up one by one) as the lists they are, the typed markers left out.
 */
export function withDrawnLists(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < blocks.length;) {
    const lines = bulletLines(blocks[i]!);
    if (lines) {
      out.push({ type: 'list', ordered: false, items: lines.map((text) => ({ text: withoutMarker(text, BULLET) })) });
      i++;
      continue;
    }
    const run = drawnRun(blocks, i);
    if (!run) {
      out.push(blocks[i]!);
      i++;
      continue;
    }
    const items: ListItem[] = run.paragraphs.map((p) => ({ text: withoutMarker(p.text, run.marker) }));
    out.push({
      type: 'list',
      ordered: run.start !== undefined,
      start: run.start !== undefined && run.start !== 1 ? run.start : undefined,
      items,
    });
    i += run.paragraphs.length;
  }
  return out;
}

/** The paragraphs from `at` that share one drawn marker kind: bullets (one or more), or numbers counting up (two or more). */
function drawnRun(
  blocks: Block[],
  at: number,
): { paragraphs: Paragraph[]; marker: RegExp; start?: number } | undefined {
  const first = leadingText(blocks[at]);
  if (first === undefined) return undefined;
  if (BULLET.test(first)) {
    const paragraphs: Paragraph[] = [];
    for (let i = at; i < blocks.length && BULLET.test(leadingText(blocks[i]) ?? ''); i++) {
      paragraphs.push(blocks[i] as Paragraph);
    }
    return { paragraphs, marker: BULLET };
  }
  const start = NUMBER.exec(first)?.[1];
  if (start === undefined) return undefined;
  const paragraphs: Paragraph[] = [];
  for (let i = at, n = Number(start); i < blocks.length; i++, n++) {
    const number = NUMBER.exec(leadingText(blocks[i]) ?? '')?.[1];
    if (number === undefined || Number(number) !== n) break;
    paragraphs.push(blocks[i] as Paragraph);
  }
  return paragraphs.length >= 2 ? { paragraphs, marker: NUMBER, start: Number(start) } : undefined;
}

/** A paragraph of two or more lines (split at line breaks) that each open with a typed bullet: those lines. */
function bulletLines(block: Block): Inline[][] | undefined {
  if (block.type !== 'paragraph' || !block.text.some((n) => n.type === 'break')) return undefined;
  const lines: Inline[][] = [[]];
  for (const node of block.text) {
    if (node.type === 'break') lines.push([]);
    else lines[lines.length - 1]!.push(node);
  }
  const blank = (n: Inline) => n.type === 'text' && !n.text.trim();
  const filled = lines.filter((line) => !line.every(blank));
  const opensWithBullet = (line: Inline[]) => {
    const head = line.find((n) => !blank(n));
    return head?.type === 'text' && BULLET.test(head.text);
  };
  if (filled.length < 2 || !filled.every(opensWithBullet)) return undefined;
  return filled.map((line) => line.slice(line.findIndex((n) => !blank(n))));
}

/** The text a paragraph opens with, when its first inline is plain text. */
function leadingText(block: Block | undefined): string | undefined {
  if (block?.type !== 'paragraph') return undefined;
  const head = block.text[0];
  return head?.type === 'text' ? head.text : undefined;
}

function withoutMarker(text: Inline[], marker: RegExp): Inline[] {
  const [head, ...rest] = text;
  if (head?.type !== 'text') return text;
  const remaining = head.text.replace(marker, '');
  return remaining ? [{ type: 'text', text: remaining }, ...rest] : rest;
}
