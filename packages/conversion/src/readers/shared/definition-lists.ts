import type { Block, Inline, ListItem } from '../../document/model';
import { withoutWholeEmphasis } from '../../document/builders';

/**
 * Paragraph style names of a definition list's terms and of their definitions: LibreOffice's
 * "List Heading" / "List Contents" (an HTML <dl> opened in Writer) and pandoc's DOCX "Definition
 * Term" / "Definition" (its ODT: "Definition Term Tight" / "Definition Definition Tight"), in
 * DOCX, ODT, RTF and DOC, as the files keep the names.
 */
export const TERM_STYLE = /^(list heading|definition term( tight)?)$/i;
export const DEFINITION_STYLE = /^(list contents|definition( definition)?( tight)?)$/i;

export type DefinitionRole = 'term' | 'definition';

/**
 * Paragraphs a reader marked as terms, each followed by its definitions, as one bulleted list: the
 * term in bold, its definitions nested under it, as the HTML reader writes a <dl>
 * (docs/decisions.md). A term without a definition after it, or a definition without a term, stays
 * a paragraph.
 */
export function definitionLists(blocks: Block[], role: (block: Block) => DefinitionRole | undefined): Block[] {
  const out: Block[] = [];
  let list: Extract<Block, { type: 'list' }> | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const next = blocks[i + 1];
    if (
      block.type === 'paragraph' &&
      role(block) === 'term' &&
      next?.type === 'paragraph' &&
      role(next) === 'definition'
    ) {
      const item: ListItem = { text: [{ type: 'strong', children: withoutWholeEmphasis(block.text) }], children: [] };
      const details: ListItem[] = [];
      while (blocks[i + 1]?.type === 'paragraph' && role(blocks[i + 1]!) === 'definition')
        details.push({ text: (blocks[++i] as { text: Inline[] }).text });
      item.children = [{ type: 'list', ordered: false, items: details }];
      if (list) list.items.push(item);
      else {
        const { text: _text, type: _type, ...provenance } = block;
        list = { ...provenance, type: 'list', ordered: false, items: [item] };
        out.push(list);
      }
      continue;
    }
    list = undefined;
    out.push(block);
  }
  return out;
}
