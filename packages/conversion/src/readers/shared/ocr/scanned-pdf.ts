import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConversionError } from '../../../types';
import type { Block } from '../../../document/model';
import { MAX_OCR_SIDE, recognise, prepareImage, type OcrResult } from './engine';

const run = promisify(execFile);
/** Pages without a text layer OCR'd per document at most. */
export const MAX_OCR_PAGES = 50;
const RENDER_DPI = 200;
/**
 * A page is rendered for OCR into at most this many pixels: a poster, a plan or a web capture many
 * feet long is rendered coarser instead of failing the PDF on the image limit (MAX_IMAGE_PIXELS).
 */
export const MAX_RENDER_PIXELS = 25_000_000;
/** A picture covering this share of the page is the page's scan (or capture)… */
const SCAN_COVERAGE = 0.9;
/**
 * …and when that scan is at screen resolution (a web or screen capture) the page is rendered no finer
 * than its pictures are (but not coarser than MIN_SCAN_DPI): its text is set in screen pixels, which
 * OCR reads as they are, and 200 dpi made 7.7 times the pixels of a 72 ppi capture. Finer scans keep
 * 200 dpi: a 150 ppi scan read at 150 dpi lost words and split paragraphs (kit medical report).
 */
const SCREEN_PPI = 100;
const MIN_SCAN_DPI = 72;
const POINTS_PER_INCH = 72;
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
  sizes: PageSize[],
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
    const scans = await scanResolutions(file, pageNumbers, sizes);
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
            String(
              renderDpi(
                sizes.find((p) => p.number === page),
                scans.get(page),
              ),
            ),
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

/** A page's size in points. */
export interface PageSize {
  number: number;
  width: number;
  height: number;
}

/**
 * The resolution a page is rendered at: RENDER_DPI, no finer than a screen-resolution scan needs
 * (SCREEN_PPI), and no finer than keeps
 * the page within MAX_RENDER_PIXELS and its sides within what Tesseract reads.
 */
export function renderDpi(size: PageSize | undefined, scanDpi: number | undefined): number {
  let dpi = RENDER_DPI;
  if (scanDpi && scanDpi <= SCREEN_PPI) dpi = Math.min(dpi, Math.max(MIN_SCAN_DPI, Math.ceil(scanDpi)));
  if (size && size.width > 0 && size.height > 0) {
    const squareInches = (size.width / POINTS_PER_INCH) * (size.height / POINTS_PER_INCH);
    dpi = Math.min(dpi, Math.floor(Math.sqrt(MAX_RENDER_PIXELS / squareInches)));
    dpi = Math.min(dpi, Math.floor((MAX_OCR_SIDE * POINTS_PER_INCH) / Math.max(size.width, size.height)));
  }
  return Math.max(1, dpi);
}

/**
 * Per page whose pictures include one covering most of it (a scan, a capture), the finest
 * resolution any of its pictures is drawn at, from poppler's `pdfimages -list`; pages without
 * such a picture (or without pdfimages) are left out.
 */
async function scanResolutions(file: string, pages: number[], sizes: PageSize[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!pages.length) return out;
  // A failed listing (no pdfimages, a damaged file) leaves every page at RENDER_DPI.
  const listing = await new Promise<string>((resolve) =>
    execFile(
      'pdfimages',
      ['-q', '-list', '-f', String(Math.min(...pages)), '-l', String(Math.max(...pages)), file],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => resolve(error ? '' : String(stdout)),
    ),
  );
  const finest = new Map<number, number>();
  const covered = new Set<number>();
  for (const row of listing.split('\n')) {
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    const cells = row.trim().split(/\s+/);
    if (cells.length < 14 || cells[2] !== 'image') continue;
    const [page, width, height, xPpi, yPpi] = [0, 3, 4, 12, 13].map((i) => Number(cells[i]));
    const size = sizes.find((p) => p.number === page);
    if (!size || !(xPpi! > 0) || !(yPpi! > 0)) continue;
    finest.set(page!, Math.max(finest.get(page!) ?? 0, xPpi!, yPpi!));
    const share = ((width! / xPpi!) * (height! / yPpi!) * POINTS_PER_INCH ** 2) / (size.width * size.height);
    if (share >= SCAN_COVERAGE) covered.add(page!);
  }
  for (const page of covered) out.set(page, finest.get(page)!);
  return out;
}
