/**
 * The one document model every reader produces and the writer renders (pandoc's idea, small).
 * Inline content is nodes (`Inline[]`); only the writer turns them into Markdown syntax. Markdown
 * that a source holds and the model cannot see into (a `.md` file's front matter) is a `raw` node or block.
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'emphasis'; children: Inline[] }
  | { type: 'strike'; children: Inline[] }
  /** Raised or lowered text (x², H₂O): written as GFM's `<sup>`/`<sub>`, as GitHub renders them. */
  | { type: 'superscript'; children: Inline[] }
  | { type: 'subscript'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; url: string; children: Inline[] }
  /** `src` only where the source names a fetchable address (a Markdown image); never a data URI. */
  | { type: 'image'; alt: string; src?: string }
  | { type: 'noteRef'; id: string }
  | { type: 'math'; tex: string; display?: boolean }
  | { type: 'break' }
  | { type: 'raw'; markdown: string };

/** A block's inline content: always nodes; the writer alone turns them into Markdown. */
export type InlineContent = Inline[];

/** Where a block comes from in the source, recorded where the format has pages (Docling's provenance). */
export interface Provenance {
  /** The page it is on, from 1: a PDF page, a slide, a sheet, an EPUB spine document. */
  page?: number;
  /** Its box on that page, `[x0, y0, x1, y1]`: PDF points or image pixels, origin top-left. */
  bbox?: [number, number, number, number];
}

export type Block = (
  | { type: 'heading'; level: number; text: InlineContent }
  | { type: 'paragraph'; text: InlineContent }
  | { type: 'list'; ordered: boolean; start?: number; items: ListItem[] }
  | { type: 'table'; rows: InlineContent[][]; headerRows?: number }
  | { type: 'code'; text: string; language?: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'rule' }
  | { type: 'notes'; notes: Note[] }
  | { type: 'raw'; markdown: string }
) &
  Provenance;

export interface ListItem {
  /** The item's first paragraph. */
  text: InlineContent;
  /** Nested lists or further paragraphs of this item. */
  children?: Block[];
  /** A task list item's box: ticked or not (GFM `- [x]`); absent for an ordinary item. */
  checked?: boolean;
}

/** A footnote or endnote: referenced from the text by an Inline `noteRef` with the same id. */
export interface Note {
  id: string;
  blocks: Block[];
}

export const text = (value: string): Inline => ({ type: 'text', text: value });
