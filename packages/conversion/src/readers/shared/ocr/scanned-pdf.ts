import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConversionError } from '../../../types';
import type { Block } from '../../../document/model';
import { recognise, prepareImage, type OcrResult } from './engine';

const run = promisify(execFile);
/** Pages without a text layer OCR'd per document at most. */
export const MAX_OCR_PAGES = 50;
const RENDER_DPI = 200;
/**
 * Pages are rendered to uncompressed TIFF: the pixels are a PNG's, but pdftoppm's PNG encoder took
 * seconds over a scanned photo's noise (6.7 s of a 7 s page; TIFF 0.07 s).
 */
const RENDER_FORMAT = ['-tiff', '-tiffcompression', 'none'];

/**
 * Renders the given pages with poppler's pdftoppm and OCRs them, one at a time, each page's
 * recognised words made into blocks by `toBlocks` (the caller's layout analysis): page number → blocks.
 */
export async function ocrPdfPages(
  pdf: Buffer,
  pageNumbers: number[],
  toBlocks: (page: OcrResult, pageNumber: number) => Promise<Block[]>,
): Promise<Map<number, Block[]>> {
  if (pageNumbers.length > MAX_OCR_PAGES) {
    throw new ConversionError(
      'too_large',
      `The PDF has ${pageNumbers.length} scanned pages without a text layer; at most ${MAX_OCR_PAGES} are read by OCR.`,
    );
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-ocr-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await fs.writeFile(file, pdf);
    const out = new Map<number, Block[]>();
    for (const page of pageNumbers) {
      const prefix = path.join(dir, `p${page}`);
      try {
        await run(
          'pdftoppm',
          [
            // Quiet: a page can make poppler print a warning per pixel (a broken shading function),
            // past the output execFile buffers, and the page failed to render though it had.
            '-q',
            '-r',
            String(RENDER_DPI),
            '-f',
            String(page),
            '-l',
            String(page),
            ...RENDER_FORMAT,
            '-singlefile',
            file,
            prefix,
          ],
          { timeout: 60_000 },
        );
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'ENOENT')
          throw new ConversionError(
            'not_implemented',
            'OCR of scanned PDF pages needs poppler-utils (pdftoppm), which is not installed.',
          );
        throw new ConversionError('corrupt_file', `Page ${page} of the PDF could not be rendered for OCR.`);
      }
      out.set(page, await toBlocks(await recognise(await prepareImage(await fs.readFile(`${prefix}.tif`))), page));
    }
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
