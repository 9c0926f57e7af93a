import { convertDocument, joinWrittenParts, renderMarkdown, writesBlocksAsRead, type Block } from '../../src';
import { writeBlocks } from '../../src/writers/markdown';
import { makePdf } from '../pdf/make-pdf';

/**
 * A long document split across converters (issue 22) writes each page range's blocks in its own
 * worker (`writeBlocksOnly`) when only the Markdown is asked for; the merge is a join of their
 * texts (`joinWrittenParts`), which must be the whole file's Markdown, byte for byte.
 */
const LOREM =
  'Harbour cranes lift containers from the ships onto waiting trucks while gulls circle above the quay. ' +
  'Dock workers check manifests, seal numbers and the weight of each load before it leaves the gate. ';

/** Six pages: a heading, paragraphs with a character to escape, and a ruled table on each. */
function reportPdf(): Promise<Buffer> {
  return makePdf((doc) => {
    for (let page = 1; page <= 6; page++) {
      if (page > 1) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text(`Section ${page}: the *harbour* report`);
      doc.font('Helvetica').fontSize(11).text(`${LOREM}Page ${page} costs 5_000 [units].`).moveDown();
      let y = doc.y;
      for (const row of [
        ['Item', 'Count'],
        [`crane ${page}`, String(page * 3)],
      ]) {
        row.forEach((cell, c) => {
          doc.rect(72 + c * 150, y, 150, 18).stroke();
          doc.text(cell, 76 + c * 150, y + 5, { width: 142, lineBreak: false });
        });
        y += 18;
      }
      doc.x = 72;
      doc.y = y + 12;
    }
  });
}

const paragraph = (text: string): Block => ({ type: 'paragraph', text: [{ type: 'text', text }] });

describe('page ranges written apart and joined (issue 22)', () => {
  it('When a PDF is read in page ranges with writeBlocksOnly, then the join of their written blocks is the whole file’s Markdown', async () => {
    const pdf = await reportPdf();
    const whole = await convertDocument(pdf, 'pdf', { enhanced: false });
    const parts = [];
    for (const [first, last] of [
      [1, 2],
      [3, 3],
      [4, 6],
    ] as const) {
      const range = await convertDocument(pdf, 'pdf', {
        enhanced: false,
        writeBlocksOnly: true,
        pageRange: [[first, last]],
      });
      expect(range.markdown).toBe('');
      parts.push(range.written!);
    }
    expect(whole.markdown).toContain('| crane 6 | 18 |');
    expect(joinWrittenParts(parts)).toBe(whole.markdown);
  });

  it('When raw blocks and empty blocks fall on either side of a cut, then the join writes what renderMarkdown writes of all blocks', () => {
    const blocks: Block[] = [
      paragraph('First paragraph.'),
      { type: 'raw', markdown: 'raw text\n\n\n\nkept as it is\n' },
      paragraph(''),
      paragraph('After the raw block.'),
      { type: 'raw', markdown: '' },
      { type: 'raw', markdown: '\nsecond raw\n' },
      { type: 'code', text: 'line one\n\n\n\nline two' },
      paragraph('Last \u0007paragraph.'),
    ];
    const expected = renderMarkdown(blocks).replace(/\u0007/g, '');
    for (let cut = 0; cut <= blocks.length; cut++) {
      const parts = [blocks.slice(0, cut), blocks.slice(cut)].map((list) => ({
        texts: writeBlocks(list),
        raw: list.flatMap((b, i) => (b.type === 'raw' ? [i] : [])),
      }));
      expect(joinWrittenParts(parts)).toBe(expected);
    }
  });

  it('When a conversion asks for more than the Markdown, then its ranges are not written apart', () => {
    expect(writesBlocksAsRead({ enhanced: false })).toBe(true);
    expect(writesBlocksAsRead({ enhanced: false, optimizeTokens: true })).toBe(false);
    expect(writesBlocksAsRead({ enhanced: false, includePages: true })).toBe(false);
    expect(writesBlocksAsRead({ enhanced: false, chunkMaxTokens: 64 })).toBe(false);
    expect(writesBlocksAsRead({ enhanced: false, includeDocument: true })).toBe(false);
  });
});
