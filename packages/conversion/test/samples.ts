import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { strToU8, zipSync } from 'fflate';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import { buildDoc, para } from './word97';
import { pptFile, record, textAtom } from './ppt97';
import sharp from 'sharp';
import * as XLSX from '@e965/xlsx';

/** One small generated document per extension, each containing PHRASE, for end-to-end tests. */
export const PHRASE = 'Hello world';

/**
 * Whether Markdown holds PHRASE as words, whatever the punctuation and case between them: a
 * transcript writes the spoken "Hello world." as "Hello, world." (docs/decisions.md).
 */
export function holdsPhrase(markdown: string): boolean {
  return markdown
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .includes(PHRASE.toLowerCase());
}

function pdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.fontSize(12).text(`${PHRASE} from a PDF.`);
    doc.end();
  });
}

function sheet(bookType: 'xlsx' | 'xls' | 'ods'): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Greeting'], [PHRASE]]), 'Sheet1');
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
}

function odf(kind: 'text' | 'presentation'): Buffer {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';
  const body =
    kind === 'text'
      ? `<office:text><text:p>${PHRASE}</text:p></office:text>`
      : `<office:presentation><draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box><text:p>${PHRASE}</text:p></draw:text-box></draw:frame></draw:page></office:presentation>`;
  return Buffer.from(
    zipSync({
      'content.xml': strToU8(
        `<office:document-content ${ns}><office:body>${body}</office:body></office:document-content>`,
      ),
    }),
  );
}

function epub(): Buffer {
  return Buffer.from(
    zipSync({
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>',
      ),
      'book.opf': strToU8(
        '<package><manifest><item id="c" href="c.xhtml"/></manifest><spine><itemref idref="c"/></spine></package>',
      ),
      'c.xhtml': strToU8(`<html><body><p>${PHRASE}</p></body></html>`),
    }),
  );
}

function ppt(): Buffer {
  return pptFile(record(0x03ee, textAtom(0, PHRASE), true));
}

async function image(format: 'png' | 'jpeg'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="120"><rect width="100%" height="100%" fill="white"/><text x="20" y="75" font-size="48" font-family="DejaVu Sans, sans-serif">${PHRASE}</text></svg>`;
  return sharp(Buffer.from(svg))[format]().toBuffer();
}

function audio(ext: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-sample-'));
  try {
    const wav = path.join(dir, 'speech.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', `${PHRASE}.`, '-o', wav]);
    const out = path.join(dir, `a.${ext}`);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Extension → generated file (.doc by our own Word 97 writer: no library writes it). */
export async function makeSamples(): Promise<Record<string, Buffer>> {
  const pptx = new PptxGenJS();
  pptx.addSlide().addText(PHRASE, { x: 1, y: 1, w: 6, h: 1 });
  return {
    txt: Buffer.from(`${PHRASE}\n`),
    md: Buffer.from(`# ${PHRASE}\n`),
    markdown: Buffer.from(`# ${PHRASE}\n`),
    csv: Buffer.from(`greeting\n${PHRASE}\n`),
    json: Buffer.from(JSON.stringify({ greeting: PHRASE })),
    xml: Buffer.from(`<greeting>${PHRASE}</greeting>`),
    html: Buffer.from(`<html><body><p>${PHRASE}</p></body></html>`),
    htm: Buffer.from(`<html><body><p>${PHRASE}</p></body></html>`),
    rtf: Buffer.from(`{\\rtf1\\ansi ${PHRASE}\\par}`),
    pdf: await pdf(),
    doc: buildDoc({ body: [para(PHRASE, 'heading 1')] }),
    docx: await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ text: PHRASE, heading: HeadingLevel.HEADING_1 })] }] }),
    ),
    xlsx: sheet('xlsx'),
    xls: sheet('xls'),
    ods: sheet('ods'),
    pptx: (await pptx.write({ outputType: 'nodebuffer' })) as Buffer,
    ppt: ppt(),
    odt: odf('text'),
    odp: odf('presentation'),
    epub: epub(),
    png: await image('png'),
    jpg: await image('jpeg'),
    jpeg: await image('jpeg'),
    wav: audio('wav'),
    mp3: audio('mp3'),
    m4a: audio('m4a'),
  };
}
