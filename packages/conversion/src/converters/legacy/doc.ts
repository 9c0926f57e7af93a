import WordExtractor from 'word-extractor';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import type { Block } from '../../markdown/model';
import { renderMarkdown } from '../../markdown/writer';
import { escapeText } from '../../markdown/inline';
import { openCompoundFile, summaryInformation } from './ole';

/**
 * DOC (Word 97-2003): word-extractor reads the piece table (8-bit and UTF-16 pieces), fields
 * and notes; paragraphs, cell-marked table rows and footnotes are rebuilt from its text.
 */
export const docConverter: Converter = {
  name: 'doc',
  extensions: ['doc'],
  async convert(input) {
    const cfb = openCompoundFile(input, 'DOC file');
    let doc: Awaited<ReturnType<WordExtractor['extract']>>;
    try {
      doc = await new WordExtractor().extract(input);
    } catch (err) {
      const message = (err as Error).message;
      if (/encrypt/i.test(message)) throw new ConversionError('encrypted_file', 'The DOC file is password-protected.');
      throw new ConversionError('corrupt_file', `The DOC file could not be read: ${message}`);
    }
    const blocks = textToBlocks(doc.getBody());
    const notes = [doc.getFootnotes(), doc.getEndnotes()].join('\n').trim();
    if (notes) {
      blocks.push({ type: 'rule' });
      blocks.push(...textToBlocks(notes));
    }
    const info = summaryInformation(cfb);
    return {
      markdown: renderMarkdown(blocks),
      metadata: { title: info.title, author: info.author, page_count: info.pages ?? 0 },
    };
  },
};

/** Paragraph text with Word's cell marks (tab-separated cells, rows ending in a blank cell) to blocks. */
function textToBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let table: string[][] = [];
  const flushTable = (): void => {
    if (table.length) blocks.push({ type: 'table', rows: table });
    table = [];
  };
  for (const raw of text.split(/\n+/)) {
    const line = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').trim();
    if (raw.includes('\t') && raw.split('\t').length >= 2) {
      table.push(raw.split('\t').map((c) => escapeText(c.trim())));
      continue;
    }
    flushTable();
    if (!line) continue;
    const bullet = /^[•·▪◦\-–]\s+(.*)$/.exec(line);
    if (bullet) blocks.push({ type: 'list', ordered: false, items: [{ text: escapeText(bullet[1]!) }] });
    else blocks.push({ type: 'paragraph', text: escapeText(line) });
  }
  flushTable();
  return mergeLists(blocks);
}

function mergeLists(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (b.type === 'list' && prev?.type === 'list' && prev.ordered === b.ordered) prev.items.push(...b.items);
    else out.push(b);
  }
  return out;
}
