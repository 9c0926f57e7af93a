import type { Block, Inline, ListItem, Provenance } from '../../document/model';

type Paragraph = Extract<Block, { type: 'paragraph' }>;

/**
 * Bullet glyphs a layout program types before a list item's text (InDesign, Quark, PDF-to-HTML
 * tools, Word's Symbol-font bullet and the Wingdings ones of its bullet library: ❖ ➢ ◆). Dashes are not among them: novels open dialogue with one.
 */
const BULLET = /^[\s\u00a0]*[•◦▪▫■□●○‣⁃∙❖➢◆⬥❑\uf0b7\uf0a7][\s\u00a0]+/;
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
      out.push({
        ...provenance(blocks[i]!),
        type: 'list',
        ordered: false,
        items: lines.map((text) => ({ text: withoutMarker(text, BULLET) })),
      });
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
      ...provenance(run.paragraphs[0]!),
      type: 'list',
      ordered: run.start !== undefined,
      start: run.start !== undefined && run.start !== 1 ? run.start : undefined,
      items,
    });
    i += run.paragraphs.length;
  }
  return out;
}

/**
 * Whether a line opens with a typed bullet as a list item does: not a row of choices on a form
 * ("○ Yes ○ No", "□ Paid □ Unpaid"), where the same glyph stands again after a space.
 */
function opensItem(text: string): boolean {
  const marker = BULLET.exec(text)?.[0];
  if (marker === undefined) return false;
  const glyph = marker.trim();
  return !text
    .slice(marker.length)
    .split(/[\s\u00a0]+/)
    .includes(glyph);
}

/** The paragraphs from `at` that share one drawn marker kind: bullets (one or more), or numbers counting up (two or more). */
function drawnRun(
  blocks: Block[],
  at: number,
): { paragraphs: Paragraph[]; marker: RegExp; start?: number } | undefined {
  const first = leadingText(blocks[at]);
  if (first === undefined) return undefined;
  if (opensItem(first)) {
    const paragraphs: Paragraph[] = [];
    for (let i = at; i < blocks.length && opensItem(leadingText(blocks[i]) ?? ''); i++) {
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
    return head?.type === 'text' && opensItem(head.text);
  };
  if (filled.length < 2 || !filled.every(opensWithBullet)) return undefined;
  return filled.map((line) => line.slice(line.findIndex((n) => !blank(n))));
}

/** Where a block comes from (its page and box): the list made of it starts there. */
function provenance(block: Block): Provenance {
  return { ...(block.page !== undefined && { page: block.page }), ...(block.bbox && { bbox: block.bbox }) };
}

/** The text a paragraph opens with: its leading plain-text nodes (a bullet and a tab may be runs of their own). */
function leadingText(block: Block | undefined): string | undefined {
  if (block?.type !== 'paragraph') return undefined;
  const head = leadingTextNodes(block.text);
  return head.length ? head.map((n) => n.text).join('') : undefined;
}

function leadingTextNodes(text: Inline[]): Array<Extract<Inline, { type: 'text' }>> {
  const end = text.findIndex((n) => n.type !== 'text');
  return text.slice(0, end < 0 ? text.length : end) as Array<Extract<Inline, { type: 'text' }>>;
}

function withoutMarker(text: Inline[], marker: RegExp): Inline[] {
  const head = leadingTextNodes(text);
  if (!head.length) return text;
  const remaining = head
    .map((n) => n.text)
    .join('')
    .replace(marker, '');
  const rest = text.slice(head.length);
  return remaining ? [{ type: 'text', text: remaining }, ...rest] : rest;
}
