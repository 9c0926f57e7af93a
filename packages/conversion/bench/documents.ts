import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import sharp from 'sharp';
import { strToU8, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';
import { buildDoc, para, type DocSpec } from '../test/word97';

const LOREM =
  'Markwright converts documents into Markdown that keeps their structure, so people and language models lose nothing important. ';

/** Large generated documents, one per family, for `pnpm bench`. */
export const benchCases = [
  {
    label: 'pdf 200 pages',
    ext: 'pdf',
    units: { count: 200, name: 'page' },
    make: () =>
      new Promise<Buffer>((resolve) => {
        const doc = new PDFDocument({ size: 'A4' });
        const chunks: Buffer[] = [];
        doc.on('data', (c: Buffer) => chunks.push(c));
        doc.on('end', () => resolve(Buffer.concat(chunks)));
        for (let p = 0; p < 200; p++) {
          if (p) doc.addPage();
          doc.fontSize(18).text(`Chapter ${p + 1}`);
          doc.fontSize(11).text(LOREM.repeat(12));
          doc.text('• first point');
          doc.text('• second point');
        }
        doc.end();
      }),
  },
  {
    label: 'docx 2000 paragraphs + 100 tables',
    ext: 'docx',
    units: { count: 2000, name: 'paragraph' },
    make: async () => {
      const children: Array<Paragraph | Table> = [];
      for (let i = 0; i < 2000; i++) {
        if (i % 20 === 0) {
          children.push(new Paragraph({ text: `Section ${i / 20}`, heading: HeadingLevel.HEADING_2 }));
          children.push(smallTable());
        }
        children.push(new Paragraph(LOREM));
      }
      return Packer.toBuffer(new Document({ sections: [{ children }] }));
    },
  },
  {
    label: 'doc 2000 paragraphs + 100 tables',
    ext: 'doc',
    units: { count: 2000, name: 'paragraph' },
    make: async () => {
      const body: DocSpec['body'] = [];
      for (let i = 0; i < 2000; i++) {
        if (i % 20 === 0) {
          body.push(para(`Section ${i / 20}`, 'heading 2'));
          body.push({ rows: [0, 1, 2].map((r) => [0, 1, 2].map((c) => `r${r}c${c}`)) });
        }
        body.push({ runs: [{ text: LOREM }, { text: 'in bold', bold: true }] });
      }
      return buildDoc({ body });
    },
  },
  {
    label: 'odt 2000 paragraphs + 100 tables',
    ext: 'odt',
    units: { count: 2000, name: 'paragraph' },
    make: async () => {
      const ns =
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
      const parts: string[] = [];
      for (let i = 0; i < 2000; i++) {
        if (i % 20 === 0) {
          parts.push(`<text:h text:outline-level="2">Section ${i / 20}</text:h><table:table>`);
          for (let r = 0; r < 3; r++)
            parts.push(
              `<table:table-row>${[0, 1, 2].map((c) => `<table:table-cell><text:p>r${r}c${c}</text:p></table:table-cell>`).join('')}</table:table-row>`,
            );
          parts.push('</table:table><text:list><text:list-item><text:p>point</text:p></text:list-item></text:list>');
        }
        parts.push(`<text:p>${LOREM}</text:p>`);
      }
      const content = `<office:document-content ${ns}><office:body><office:text>${parts.join('')}</office:text></office:body></office:document-content>`;
      return Buffer.from(
        zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8(content) }),
      );
    },
  },
  {
    label: 'rtf 5000 paragraphs + 250 tables',
    ext: 'rtf',
    units: { count: 5000, name: 'paragraph' },
    make: async () => {
      const parts = ['{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}{\\info{\\title Bench}}'];
      for (let i = 0; i < 5000; i++) {
        if (i % 20 === 0) {
          parts.push(`\\pard\\outlinelevel1 Section ${i / 20}\\par`);
          for (let r = 0; r < 3; r++)
            parts.push(`\\trowd\\cellx2000\\cellx4000\\pard\\intbl r${r}a\\cell r${r}b\\cell\\row`);
        }
        parts.push(`\\pard Caf\\'e9 {\\b ${LOREM}} \\u26085?\\par`);
      }
      parts.push('}');
      return Buffer.from(parts.join('\n'), 'latin1');
    },
  },
  {
    label: 'epub 200 chapters',
    ext: 'epub',
    units: { count: 200, name: 'chapter' },
    make: async () => {
      const files: Record<string, Uint8Array> = {
        mimetype: strToU8('application/epub+zip'),
        'META-INF/container.xml': strToU8(
          '<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>',
        ),
      };
      const ids = Array.from({ length: 200 }, (_, i) => `c${i}`);
      for (const id of ids) {
        files[`${id}.xhtml`] = strToU8(
          `<html><body><h1>Chapter ${id}</h1>${`<p>${LOREM.repeat(3)}</p>`.repeat(20)}<ul><li>one</li><li>two</li></ul></body></html>`,
        );
      }
      files['book.opf'] = strToU8(
        `<package><metadata/><manifest>${ids.map((id) => `<item id="${id}" href="${id}.xhtml"/>`).join('')}</manifest><spine>${ids.map((id) => `<itemref idref="${id}"/>`).join('')}</spine></package>`,
      );
      return Buffer.from(zipSync(files));
    },
  },
  {
    label: 'html 2 MB page',
    ext: 'html',
    units: { count: 2, name: 'MB' },
    make: async () => {
      const section = `<h2>Part</h2><p>${LOREM.repeat(4)}</p><ul><li>a<ul><li>b</li></ul></li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table><pre><code class="language-js">let x = 1;</code></pre>`;
      const body = section.repeat(Math.ceil((2 * 1024 * 1024) / section.length));
      return Buffer.from(`<html><head><title>Bench</title></head><body><main>${body}</main></body></html>`);
    },
  },
  {
    label: 'xlsx 50k rows',
    ext: 'xlsx',
    units: { count: 50, name: '1k rows' },
    make: async () => {
      const rows: unknown[][] = [['id', 'name', 'amount', 'share']];
      for (let i = 0; i < 50_000; i++) rows.push([i, `Name ${i}`, i * 1.5, (i % 100) / 100]);
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Data');
      return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    },
  },
  {
    label: 'pptx 200 slides',
    ext: 'pptx',
    units: { count: 200, name: 'slide' },
    make: async () => {
      const pptx = new PptxGenJS();
      for (let i = 0; i < 200; i++) {
        const slide = pptx.addSlide();
        slide.addText(`Slide ${i}`, { x: 0.5, y: 0.3, w: 9, h: 1, fontSize: 28 });
        slide.addText('Point one\nPoint two\nPoint three', { x: 0.5, y: 1.5, w: 9, h: 2, bullet: true });
      }
      return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    },
  },
  {
    label: 'png page of text (OCR)',
    ext: 'png',
    units: { count: 1, name: 'image' },
    make: async () => {
      const lines = Array.from(
        { length: 30 },
        (_, i) =>
          `<text x="40" y="${60 + i * 34}" font-size="24" font-family="DejaVu Sans">${LOREM.slice(0, 70)} ${i}</text>`,
      );
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1100"><rect width="100%" height="100%" fill="white"/>${lines.join('')}</svg>`;
      return sharp(Buffer.from(svg)).png().toBuffer();
    },
  },
  {
    label: 'wav 1 minute of speech',
    ext: 'wav',
    units: { count: 1, name: 'minute' },
    make: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-bench-audio-'));
      const file = path.join(dir, 'speech.wav');
      execFileSync('flite', ['-voice', 'slt', '-t', LOREM.repeat(6), '-o', file]);
      const trimmed = path.join(dir, 'minute.wav');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', file, '-t', '60', trimmed]);
      const out = fs.readFileSync(trimmed);
      fs.rmSync(dir, { recursive: true, force: true });
      return out;
    },
  },
];

/** The 3×3 table (cells r0c0 … r2c2) the DOCX bench documents repeat. */
export function smallTable(): Table {
  return new Table({
    rows: [0, 1, 2].map(
      (r) =>
        new TableRow({ children: [0, 1, 2].map((c) => new TableCell({ children: [new Paragraph(`r${r}c${c}`)] })) }),
    ),
  });
}
