import { text, type Block, type Inline } from '../../document/model';
import { commentBlocks } from './comments';
import { isBlankInline } from '../../document/predicates';

/** Plain text (PPT, PPTX) or inline nodes (ODP, whose runs carry emphasis and links). */
export type SlideText = string | Inline[];

/** A slide as every presentation reader (pptx, odp, ppt) describes it, rendered the same way. */
export interface SlideModel {
  title: SlideText;
  /** The slide's own name where the format keeps one (ODP `draw:name`), shown when it has no title. */
  name?: string;
  /** The slide's number in the file (from 1), when not every slide is read (E2); else its place in the list. */
  number?: number;
  /** Content in reading order. */
  blocks: Block[];
  notes: SlideText[];
  /** Reviewers' comments on the slide, in the order the file keeps them (replies after what they answer). */
  comments?: Array<{ author: string; text: SlideText }>;
}

export interface ParagraphModel {
  text: SlideText;
  level: number;
  bullet: 'none' | 'bullet' | 'number';
  /** The number a numbered list starting at this paragraph begins with (1 when absent). */
  start?: number;
}

/** Paragraphs of one text frame to blocks: runs of bullet paragraphs become (nested) lists. */
export function paragraphsToBlocks(paragraphs: ParagraphModel[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < paragraphs.length) {
    const p = paragraphs[i]!;
    if (isBlank(p.text)) {
      i++;
      continue;
    }
    if (p.bullet === 'none') {
      blocks.push({ type: 'paragraph', text: inlines(p.text) });
      i++;
      continue;
    }
    const run: ParagraphModel[] = [];
    while (i < paragraphs.length && paragraphs[i]!.bullet !== 'none') {
      if (!isBlank(paragraphs[i]!.text)) run.push(paragraphs[i]!);
      i++;
    }
    blocks.push(...nestList(run, 0));
  }
  return blocks;
}

function nestList(run: ParagraphModel[], base: number): Block[] {
  const blocks: Block[] = [];
  let current: Extract<Block, { type: 'list' }> | undefined;
  let k = 0;
  while (k < run.length) {
    const p = run[k]!;
    if (p.level > base && current && current.items.length) {
      const nested: ParagraphModel[] = [];
      while (k < run.length && run[k]!.level > base) nested.push(run[k++]!);
      const last = current.items[current.items.length - 1]!;
      last.children = [...(last.children ?? []), ...nestList(nested, base + 1)];
      continue;
    }
    const ordered = p.bullet === 'number';
    if (!current || current.ordered !== ordered) {
      current = { type: 'list', ordered, items: [] };
      if (ordered && p.start !== undefined && p.start !== 1) current.start = p.start;
      blocks.push(current);
    }
    current.items.push({ text: inlines(p.text) });
    k++;
  }
  return blocks;
}

/** A shape's place on the slide: its top-left corner, and its size where the format gives one. */
export interface SlideBox {
  x: number;
  y: number;
  w?: number;
  h?: number;
  /** A picture: a row of pictures over captions under each reads picture by picture (cards). */
  picture?: boolean;
}

/**
 * Shapes in reading order: top to bottom in bands of nearly equal tops (within `tolerance`, so
 * boxes side by side whose tops differ by a hair read left to right), left to right within a band.
 * A band of column headings over a band of taller boxes, one under each heading (PowerPoint's
 * Comparison layout, a heading over each column's text), is read column by column, and so is a row
 * of pictures with text under each (a team slide's photo, name and role).
 */
export function readingOrder<T extends SlideBox>(items: T[], tolerance: number): T[] {
  const bands: T[][] = [];
  let band: T[] = [];
  let bandTop = -Infinity;
  for (const item of [...items].sort((a, b) => a.y - b.y)) {
    if (item.y - bandTop > tolerance) {
      if (band.length) bands.push(band.sort((a, b) => a.x - b.x));
      band = [];
      bandTop = item.y;
    }
    band.push(item);
  }
  if (band.length) bands.push(band.sort((a, b) => a.x - b.x));
  const out: T[] = [];
  for (let i = 0; i < bands.length; i++) {
    const top = bands[i]!;
    let end = i + 1;
    if (top.length >= 2 && top.every((p) => p.picture)) {
      while (
        end < bands.length &&
        bands[end]!.every((p) => !p.picture) &&
        underEach(bands[end - 1]!, bands[end]!, tolerance)
      )
        end++;
    } else if (end < bands.length && headsColumns(top, bands[end]!, tolerance)) end++;
    if (end === i + 1) {
      out.push(...top);
      continue;
    }
    top.forEach((_, k) => {
      for (let j = i; j < end; j++) out.push(bands[j]![k]!);
    });
    i = end - 1;
  }
  return out;
}

/**
 * Whether each box of `lower` stands under the box of `upper` in its place: as many of each (two
 * or more), the k-th overlapping the k-th across and no other, starting below it.
 */
function underEach<T extends SlideBox>(upper: T[], lower: T[], tolerance: number): boolean {
  if (upper.length < 2 || upper.length !== lower.length) return false;
  const across = (a: T, b: T): boolean => a.x < b.x + (b.w ?? 0) && b.x < a.x + (a.w ?? 0);
  return upper.every((above, k) => {
    const below = lower[k]!;
    if (!above.w || !above.h || !below.w || !below.h) return false;
    if (above.y + above.h > below.y + tolerance) return false;
    return across(above, below) && lower.every((other, j) => j === k || !across(above, other));
  });
}

/**
 * Whether each box of `heads` heads the box under it in `bodies` and is shorter than it. Rows of
 * boxes the same height (a grid of labels and values) are no such pair and stay rows.
 */
function headsColumns<T extends SlideBox>(heads: T[], bodies: T[], tolerance: number): boolean {
  return underEach(heads, bodies, tolerance) && heads.every((head, k) => bodies[k]!.h! > head.h!);
}

/** The slides in order, each opened by its title as a heading, every block marked with its slide's number as its page. */
export function slidesToBlocks(slides: SlideModel[]): Block[] {
  const blocks: Block[] = [];
  slides.forEach((slide, i) => {
    const page = slide.number ?? i + 1;
    const add = (block: Block): void => {
      blocks.push({ ...block, page });
    };
    add({
      type: 'heading',
      level: 1,
      text: !isBlank(slide.title) ? inlines(slide.title) : inlines(slide.name?.trim() || `Slide ${page}`),
    });
    slide.blocks.forEach(add);
    if (slide.notes.some((n) => !isBlank(n))) {
      add({ type: 'heading', level: 3, text: [text('Notes')] });
      for (const note of slide.notes) if (!isBlank(note)) add({ type: 'paragraph', text: inlines(note) });
    }
    const comments = (slide.comments ?? []).filter((c) => !isBlank(c.text));
    commentBlocks(comments.map((c) => ({ author: c.author, text: inlines(c.text) }))).forEach(add);
  });
  return blocks;
}

/** Slide text as inline nodes (PPT and PPTX give plain text, ODP nodes). */
export function inlines(text: SlideText): Inline[] {
  return typeof text === 'string' ? [{ type: 'text', text: text.trim() }] : text;
}

/** No visible text: empty, white space only, or nodes holding only that. */
export function isBlank(text: SlideText): boolean {
  return typeof text === 'string' ? !text.trim() : isBlankInline(text);
}
