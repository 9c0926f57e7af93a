import type { Block } from '../../../document/model';
import { inlineText } from '../../../document/predicates';
import type { OcrWord } from './engine';

type Box = [number, number, number, number];

/** How many words ahead a block's first word is looked for when the recognised words and the blocks' text drift apart. */
const SEARCH_WINDOW = 40;

/**
 * Each block's box (E4's bbox) from Tesseract's word boxes: the blocks were made from the words in
 * reading order, so each block takes as many words as it has, from the first one that spells its
 * first word. Boxes are scaled by `sx`, `sy` from the prepared image's pixels to the page's space.
 */
export function withWordBoxes(blocks: Block[], words: OcrWord[], sx = 1, sy = 1): Block[] {
  let at = 0;
  return blocks.map((block) => {
    const tokens = blockText(block).split(/\s+/).map(key).filter(Boolean);
    if (!tokens.length || at >= words.length) return block;
    let start = at;
    for (let i = at; i < Math.min(words.length, at + SEARCH_WINDOW); i++) {
      if (key(words[i]!.text) === tokens[0]) {
        start = i;
        break;
      }
    }
    const taken = words.slice(start, start + tokens.length);
    at = start + taken.length;
    if (!taken.length) return block;
    const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const w of taken) {
      box[0] = Math.min(box[0], w.x0);
      box[1] = Math.min(box[1], w.y0);
      box[2] = Math.max(box[2], w.x1);
      box[3] = Math.max(box[3], w.y1);
    }
    return { ...block, bbox: [box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy] };
  });
}

function key(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return inlineText(block.text);
    case 'list':
      return block.items
        .map((item) => [inlineText(item.text), ...(item.children ?? []).map(blockText)].join(' '))
        .join(' ');
    case 'table':
      return block.rows.map((row) => row.map((cell) => inlineText(cell)).join(' ')).join(' ');
    case 'quote':
      return block.blocks.map(blockText).join(' ');
    case 'code':
      return block.text;
    default:
      return '';
  }
}
