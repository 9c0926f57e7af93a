import { text, type Block, type Inline } from '../../document/model';

/** A reviewer's comment on part of a document (a slide, a cell): who, where, and what it says. */
export interface ReviewComment {
  author: string;
  text: Inline[];
  /** Where it is anchored when that isn't obvious from its place in the output, e.g. a cell address. */
  on?: string;
}

/**
 * One `### Comments` section after the part they belong to, a paragraph per comment in the
 * document's order ("Comment by Ann on B2: …"), the same in every format that has them.
 */
export function commentBlocks(comments: ReviewComment[]): Block[] {
  const shown = comments.filter((c) => c.text.some((n) => n.type !== 'text' || n.text.trim()));
  if (!shown.length) return [];
  return [
    { type: 'heading', level: 3, text: [text('Comments')] },
    ...shown.map((c): Block => {
      const author = c.author.trim();
      const by = `${author ? `Comment by ${author}` : 'Comment'}${c.on ? ` on ${c.on}` : ''}: `;
      return { type: 'paragraph', text: [{ type: 'text', text: by }, ...c.text] };
    }),
  ];
}
