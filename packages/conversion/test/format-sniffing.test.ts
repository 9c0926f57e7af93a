import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { closeConversionWorkers, convertDocument, convertIsolated } from '../src';
import { holdsPhrase, makeSamples, PHRASE } from './samples';
import { oneLinePdf } from './pdf/make-pdf';

const std = { enhanced: false };
const limits = { timeoutMs: 120_000, maxMemoryMb: 1536 };

/** A real file of each binary format, and the name it is uploaded under (a lie each time). */
const LIES: Array<[real: string, named: string]> = [
  ['pptx', 'ppt'],
  ['ppt', 'pptx'],
  ['docx', 'doc'],
  ['doc', 'docx'],
  ['rtf', 'doc'],
  ['xlsx', 'xls'],
  ['xls', 'xlsx'],
  ['ods', 'xlsx'],
  ['xlsx', 'csv'],
  ['odt', 'docx'],
  ['odp', 'pptx'],
  ['epub', 'odt'],
  ['pdf', 'docx'],
  ['docx', 'txt'],
  ['html', 'xls'],
  ['html', 'doc'],
];

describe('content, not extension', () => {
  let samples: Record<string, Buffer>;
  beforeAll(async () => {
    samples = await makeSamples();
  }, 120_000);
  afterAll(() => closeConversionWorkers());

  // In worker threads, as the service converts (pdf.js loads there, not inside jest's module sandbox).
  it.each(LIES)('When a %s file is named .%s, then it converts as what it is', async (real, named) => {
    const truth = await convertIsolated(samples[real]!, real, std, limits);
    const lied = await convertIsolated(samples[real]!, named, std, limits);
    expect(truth.markdown).toContain(PHRASE);
    expect(lied).toEqual(truth);
  });

  it('When a PNG is named .pdf, then it is read as an image', async () => {
    // In a worker too: OCR's engine lives in the thread that converts, and the pool closes it.
    const { markdown } = await convertIsolated(samples.png!, 'pdf', std, limits);
    expect(markdown).toContain(PHRASE);
  }, 60_000);

  it.each(['xlsx', 'xls', 'ods'])(
    'When random bytes are named .%s, then they are refused as not a spreadsheet instead of read as text',
    async (ext) => {
      const bytes = randomBytes(64 * 1024);
      bytes[0] = 0x01; // no chance of a real signature at the start
      await expect(convertDocument(bytes, ext, std)).rejects.toMatchObject({
        code: 'corrupt_file',
        message: `The file is named .${ext} but is not a spreadsheet: its content is not a document, image or audio file in any format we convert.`,
      });
    },
  );

  it('When a file of a format we do not read is uploaded, then the error names what it is', async () => {
    await expect(convertDocument(gzipSync(Buffer.alloc(1000)), 'pdf', std)).rejects.toMatchObject({
      code: 'unsupported_format',
      message:
        'The file is named .pdf but is not a PDF document: it is a GZ file (application/gzip), which is not a format we convert.',
    });
  });

  it('When a plain zip archive is named .pdf, then it is refused as an archive', async () => {
    const zip = Buffer.from(zipSync({ 'notes/a.txt': strToU8('hello') }));
    await expect(convertDocument(zip, 'pdf', std)).rejects.toMatchObject({
      code: 'unsupported_format',
      message:
        'The file is named .pdf but is not a PDF document: it is a zip archive, not a document in any format we convert.',
    });
  });

  it('When plain text is named .pptx, then it is refused as plain text', async () => {
    await expect(convertDocument(Buffer.from('just some words\n'), 'pptx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message: 'The file is named .pptx but is not a presentation: its content is plain text.',
    });
  });

  it('When tab-separated text is named .xls, then it converts as a spreadsheet', async () => {
    const { markdown } = await convertDocument(Buffer.from('Name\tCity\nAna\tLisbon\n'), 'xls', std);
    expect(markdown).toContain('| Name | City |');
    expect(markdown).toContain('| Ana | Lisbon |');
  });

  it('When an Excel 2003 XML spreadsheet is named .xml, then it converts as a workbook; other XML stays XML', async () => {
    const workbook = (ns: string) =>
      '<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n' +
      `<Workbook xmlns="${ns}" xmlns:ss="${ns}"><Worksheet ss:Name="Budget"><Table>` +
      '<Row><Cell><Data ss:Type="String">Item</Data></Cell><Cell><Data ss:Type="String">Cost</Data></Cell></Row>' +
      '<Row><Cell><Data ss:Type="String">Paper</Data></Cell><Cell><Data ss:Type="Number">12.5</Data></Cell></Row>' +
      '</Table></Worksheet></Workbook>\n';
    const sheet = await convertDocument(
      Buffer.from(workbook('urn:schemas-microsoft-com:office:spreadsheet')),
      'xml',
      std,
    );
    expect(sheet.markdown).toBe('## Budget\n\n| Item | Cost |\n| --- | --- |\n| Paper | 12.5 |\n');
    const other = await convertDocument(Buffer.from(workbook('urn:example:books')), 'xml', std);
    expect(other.markdown).toMatch(/^```xml\n/);
  });

  it('When a PDF starts after a byte-order mark and its body is uncompressed text, then it converts as a PDF', async () => {
    const pdf = oneLinePdf('Hello from a mail gateway');
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), pdf]);
    expect((await convertDocument(withBom, 'pdf', std)).markdown).toBe('Hello from a mail gateway\n');
  });

  it('When a file named .pdf lost its %PDF- header but opens with an object and ends with its trailer, then it converts as a PDF; text naming objects does not', async () => {
    const pdf = oneLinePdf('Header lost');
    // The header line becomes a comment of the same length, as a generator that writes "%" and binary bytes.
    const headless = Buffer.concat([
      Buffer.from('%\xe2\xe3\xcf\xd3\xe2\xe3\xcf\n', 'latin1'),
      pdf.subarray('%PDF-1.7\n'.length),
    ]);
    expect((await convertDocument(headless, 'pdf', std)).markdown).toBe('Header lost\n');
    const notes = Buffer.from('Notes on PDF syntax: 1 0 obj starts an object.\nThat is all.\n');
    await expect(convertDocument(notes, 'pdf', std)).rejects.toMatchObject({
      message: 'The file is named .pdf but is not a PDF document: its content is plain text.',
    });
  });

  it('When a zip is damaged, then the error says so without the zip reader internals', async () => {
    const zip = Buffer.from(samples.docx!.subarray(0, 200));
    await expect(convertDocument(zip, 'epub', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message:
        'The file is named .epub but is not an EPUB book: it is a damaged or truncated zip package that cannot be opened.',
    });
  });

  it('When an MP3 opens with zero padding before its first frame, then it converts as the MP3; zeros alone are refused', async () => {
    const padded = Buffer.concat([Buffer.alloc(417), samples.mp3!]);
    const truth = await convertIsolated(samples.mp3!, 'mp3', std, limits);
    const converted = await convertIsolated(padded, 'mp3', std, limits);
    expect(holdsPhrase(converted.markdown)).toBe(true);
    expect(converted.markdown).toBe(truth.markdown);
    await expect(convertDocument(Buffer.alloc(4096), 'mp3', std)).rejects.toMatchObject({
      code: 'corrupt_file',
      message:
        'The file is named .mp3 but is not an audio file: its content is not a document, image or audio file in any format we convert.',
    });
  }, 60_000);

  it('When a binary format file is empty, then the Markdown is empty', async () => {
    expect(await convertDocument(Buffer.alloc(0), 'docx', std)).toEqual({
      markdown: '',
      metadata: { title: '', author: '', page_count: 0 },
      blocks: [],
    });
  });
});
