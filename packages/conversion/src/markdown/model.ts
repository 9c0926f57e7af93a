/**
 * The one document model every reader produces and the writer renders (pandoc's idea, small).
 * Inline text inside blocks is Markdown already: build it with the helpers in ./inline.ts.
 */
export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; start?: number; items: ListItem[] }
  | { type: 'table'; rows: string[][]; headerRows?: number }
  | { type: 'code'; text: string; language?: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'rule' }
  | { type: 'raw'; markdown: string };

export interface ListItem {
  /** Inline Markdown of the item's first paragraph. */
  text: string;
  /** Nested lists or further paragraphs of this item. */
  children?: Block[];
}
