import { closeConversionWorkers, convertIsolated, DEFAULT_LIMITS } from '../../src';
import { MAX_PDF_PAGES, offerPdftohtmlOutput, readPages } from '../../src/readers/pdf/poppler';
import { makePdf } from './make-pdf';

/** pdftohtml's XML of one page holding `text`, as poppler writes it. */
function pdf2xml(text: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">',
    '',
    '<pdf2xml producer="poppler" version="22.12.0">',
    '<page number="1" position="absolute" top="0" left="0" height="841" width="595">',
    '\t<fontspec id="0" size="11" family="Helvetica" color="#000000"/>',
    `<text top="100" left="72" width="200" height="12" font="0">${text}</text>`,
    '</page>',
    '</pdf2xml>',
    '',
  ].join('\n');
}

const texts = (pages: Awaited<ReturnType<typeof readPages>>): string[] =>
  pages.flatMap((p) => p.items.map((i) => i.text));

/**
 * The CLI runs pdftohtml on a batch's next PDF while the worker converts the current one, and hands
 * its output to the worker with the task (cli/convert.ts readAhead): the reader takes it instead of
 * running pdftohtml again, for exactly those bytes and the whole-file read, once.
 */
describe('pdftohtml output made ahead', () => {
  let file: Buffer;
  beforeAll(async () => {
    file = await makePdf((doc) => doc.font('Helvetica').fontSize(11).text('Read by pdftohtml.'));
  });
  afterAll(() => closeConversionWorkers());

  it('When output is offered for these bytes, then the whole-file read takes it once, and the next read runs pdftohtml', async () => {
    offerPdftohtmlOutput({ input: Buffer.from(file), xml: pdf2xml('Offered text') });
    expect(texts(await readPages(file, 1, MAX_PDF_PAGES + 1))).toEqual(['Offered text']);
    expect(texts(await readPages(file, 1, MAX_PDF_PAGES + 1))).toEqual(['Read by pdftohtml.']);
  });

  it('When other bytes or other pages are read, then the offer is not used', async () => {
    const other = await makePdf((doc) => doc.font('Helvetica').fontSize(11).text('Another file.'));
    offerPdftohtmlOutput({ input: file, xml: pdf2xml('Offered text') });
    try {
      expect(texts(await readPages(other, 1, MAX_PDF_PAGES + 1))).toEqual(['Another file.']);
      expect(texts(await readPages(file, 1, 1))).toEqual(['Read by pdftohtml.']);
    } finally {
      offerPdftohtmlOutput(undefined);
    }
  });

  it('When a worker is given the output with the task, then its reader uses it, and the next task without it runs pdftohtml', async () => {
    const options = { enhanced: false };
    const offered = await convertIsolated(file, 'pdf', options, DEFAULT_LIMITS, undefined, {
      pdftohtml: pdf2xml('Offered text'),
    });
    expect(offered.markdown).toBe('Offered text\n');
    expect((await convertIsolated(file, 'pdf', options, DEFAULT_LIMITS)).markdown).toBe('Read by pdftohtml.\n');
  });
});
