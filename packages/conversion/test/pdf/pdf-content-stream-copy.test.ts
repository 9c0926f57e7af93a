import { openContentRules } from '../../src/readers/pdf/content-rules';
import { makePdf, ruledGrid } from './make-pdf';

describe('A page content stream read once', () => {
  afterEach(() => jest.restoreAllMocks());

  it('When a page has one content stream, then its rules are read from the inflated bytes without joining a copy', async () => {
    const input = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(10).text('A ruled grid', 72, 60);
      ruledGrid(
        doc,
        [72, 192, 312],
        [100, 124, 148],
        [
          ['a', 'b'],
          ['c', 'd'],
        ],
      );
    });
    const source = await openContentRules(input);
    const concat = jest.spyOn(Buffer, 'concat');
    const rules = source!.pageRules(1)!;
    expect(concat).not.toHaveBeenCalled();
    expect(rules.filter((r) => r.horizontal).map((r) => r.from)).toContain(72);
    expect(rules.length).toBeGreaterThanOrEqual(6);
  });
});
