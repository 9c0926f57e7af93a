import type { Block } from '../../markdown/model';
import { escapeText, imagePlaceholder } from '../../markdown/inline';

/** A slide as every presentation reader (pptx, odp, ppt) describes it, rendered the same way. */
export interface SlideModel {
  title: string;
  /** The slide's own name where the format keeps one (ODP `draw:name`), shown when it has no title. */
  name?: string;
  /** Content in reading order. */
  blocks: Block[];
  notes: string[];
}

export interface ParagraphModel {
  text: string;
  level: number;
  bullet: 'none' | 'bullet' | 'number';
}

/** Paragraphs of one text frame to blocks: runs of bullet paragraphs become (nested) lists. */
export function paragraphsToBlocks(paragraphs: ParagraphModel[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < paragraphs.length) {
    const p = paragraphs[i]!;
    if (!p.text.trim()) {
      i++;
      continue;
    }
    if (p.bullet === 'none') {
      blocks.push({ type: 'paragraph', text: escapeText(p.text.trim()) });
      i++;
      continue;
    }
    const run: ParagraphModel[] = [];
    while (i < paragraphs.length && paragraphs[i]!.bullet !== 'none') {
      if (paragraphs[i]!.text.trim()) run.push(paragraphs[i]!);
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
      blocks.push(current);
    }
    current.items.push({ text: escapeText(p.text.trim()) });
    k++;
  }
  return blocks;
}

export function renderSlides(slides: SlideModel[]): Block[] {
  const blocks: Block[] = [];
  slides.forEach((slide, i) => {
    blocks.push({
      type: 'heading',
      level: 1,
      text: escapeText(slide.title.trim() || slide.name?.trim() || '') || `Slide ${i + 1}`,
    });
    blocks.push(...slide.blocks);
    if (slide.notes.some((n) => n.trim())) {
      blocks.push({ type: 'heading', level: 3, text: 'Notes' });
      for (const note of slide.notes)
        if (note.trim()) blocks.push({ type: 'paragraph', text: escapeText(note.trim()) });
    }
  });
  return blocks;
}

export { imagePlaceholder };
