import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Inline } from '../../../document/model';
import { ocrImage } from './engine';

const run = promisify(execFile);

/** Pictures read by OCR per document at most (each costs about a second). */
export const MAX_PICTURES = 40;
/** Pictures narrower or shorter than this (icons, bullets, rules) hold no readable text. */
const MIN_SIDE_PX = 48;
/** Tesseract's mean confidence (0-100) below which a picture's text is noise (a photo, a drawing). */
const MIN_CONFIDENCE = 60;

/**
 * Enhanced mode's reader of the text inside embedded pictures (scanned inserts, screenshots,
 * charts), shared by the DOCX, PPTX, EPUB and PDF converters: one OCR pass per distinct picture,
 * at most MAX_PICTURES per document; a picture that can't be decoded (EMF, WMF) reads as ''.
 */
export class PictureReader {
  private readonly read = new Map<string, Promise<string>>();

  /** The text in the picture stored under `key` (a part name), read once. */
  text(key: string, bytes: () => Uint8Array | undefined): Promise<string> {
    let pending = this.read.get(key);
    if (!pending) {
      const data = this.read.size < MAX_PICTURES ? bytes() : undefined;
      pending = data ? readPicture(Buffer.from(data)) : Promise.resolve('');
      this.read.set(key, pending);
    }
    return pending;
  }
}

async function readPicture(bytes: Buffer): Promise<string> {
  try {
    const meta = await sharp(bytes).metadata();
    if ((meta.width ?? 0) < MIN_SIDE_PX || (meta.height ?? 0) < MIN_SIDE_PX) return '';
    const { paragraphs, confidence } = await ocrImage(bytes);
    const text = paragraphs.join(' ').trim();
    // Photos and drawings give low-confidence fragments: keep only text that reads as words.
    const words = text.match(/\p{L}{3,}/gu) ?? [];
    return confidence >= MIN_CONFIDENCE && words.length >= 2 ? text : '';
  } catch {
    return '';
  }
}

/** A picture as an image node: its alt text, and what OCR read in it when there is any. */
export function picturePlaceholder(alt: string, text: string | undefined): Inline[] {
  return [{ type: 'image', alt: text ? `${alt}: ${text}` : alt }];
}

/**
 * Text of the pictures on the given PDF pages (poppler's pdfimages extracts them as drawn):
 * page number → the text of each picture that has any, in the order pdfimages lists them.
 */
export async function pdfPictureText(pdf: Buffer, pages: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!pages.length) return out;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-pdfimages-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await fs.writeFile(file, pdf);
    const wanted = new Set(pages);
    await run('pdfimages', ['-q', '-png', '-p', file, path.join(dir, 'img')], { timeout: 120_000 }).catch(
      () => undefined,
    );
    const files = (await fs.readdir(dir)).filter((f) => /^img-\d+-\d+\.png$/.test(f)).sort();
    const reader = new PictureReader();
    for (const name of files) {
      const page = Number(/^img-(\d+)-/.exec(name)![1]);
      if (!wanted.has(page)) continue;
      const bytes = await fs.readFile(path.join(dir, name));
      const text = await reader.text(name, () => bytes);
      if (text) out.set(page, [...(out.get(page) ?? []), text]);
    }
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
