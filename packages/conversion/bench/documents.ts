import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import sharp from 'sharp';
import * as XLSX from 'xlsx';

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
          children.push(
            new Table({
              rows: [0, 1, 2].map(
                (r) =>
                  new TableRow({
                    children: [0, 1, 2].map((c) => new TableCell({ children: [new Paragraph(`r${r}c${c}`)] })),
                  }),
              ),
            }),
          );
        }
        children.push(new Paragraph(LOREM));
      }
      return Packer.toBuffer(new Document({ sections: [{ children }] }));
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
