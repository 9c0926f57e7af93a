import { decodeXML } from 'entities';
import * as XLSX from '@e965/xlsx';
import type { SafeZip } from '../../archive/safe-zip';
import type { ReviewComment } from '../shared/comments';

/** The tags the scan follows: sheets, rows, cells (covered ones too) and the comments in cells. */
const TAG =
  /<(\/?)(table:table|table:table-row|table:table-cell|table:covered-table-cell|office:annotation)(?=[\s/>])([^>]*?)(\/?)>/g;

const REPEATS = {
  rows: /table:number-rows-repeated="(\d+)"/,
  columns: /table:number-columns-repeated="(\d+)"/,
};

/** A repeat count from a start tag's attributes, 1 when absent. */
function repeated(attrs: string, of: keyof typeof REPEATS): number {
  return Math.max(Number(REPEATS[of].exec(attrs)?.[1] ?? 1) || 1, 1);
}

/** A comment's author and its paragraphs' text, from the XML between its start and end tags. */
function commentOf(xml: string, on: string): ReviewComment | undefined {
  const author = decodeXML(/<dc:creator>([^<]*)<\/dc:creator>/.exec(xml)?.[1] ?? '');
  const paragraphs = [...xml.matchAll(/<text:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/text:p>)/g)].map((m) =>
    decodeXML((m[1] ?? '').replace(/<text:(?:s|tab|line-break)\b[^>]*\/>/g, ' ').replace(/<[^>]+>/g, '')),
  );
  const text = paragraphs.join(' ').replace(/\s+/g, ' ').trim();
  return text ? { author, text: [{ type: 'text', text }], on } : undefined;
}

/**
 * The comments on an ODS workbook's cells, by sheet name, each with its cell: SheetJS keeps a
 * comment only with a cell it keeps, so one on a blank cell (a note put on an empty cell, as
 * LibreOffice allows) or on a formula's text is lost there. Found by scanning content.xml's tags,
 * so a large sheet's cells are never built into a tree; cells are counted as SheetJS counts them
 * (repeated rows and columns, covered cells).
 */
export function odsCellComments(zip: SafeZip): Map<string, ReviewComment[]> {
  const out = new Map<string, ReviewComment[]>();
  const xml = zip.textOf('content.xml');
  if (!xml?.includes('<office:annotation')) return out;
  let sheet = '';
  let depth = 0;
  let row = -1;
  let col = 0;
  let rowRepeat = 1;
  let cell: { start: number; col: number } | undefined;
  for (const m of xml.matchAll(TAG)) {
    const [, close, name, attrs = '', selfClosing] = m;
    if (name === 'table:table') {
      if (close) depth--;
      else if (!selfClosing && ++depth === 1) {
        sheet = decodeXML(/table:name="([^"]*)"/.exec(attrs)?.[1] ?? '');
        row = -1;
      }
    } else if (depth !== 1) continue;
    else if (name === 'table:table-row') {
      if (close) row += rowRepeat - 1;
      else {
        row++;
        col = 0;
        rowRepeat = repeated(attrs, 'rows');
        if (selfClosing) row += rowRepeat - 1;
      }
    } else if (name === 'office:annotation') continue;
    else if (close) {
      const comment = cell ? cellComment(xml.slice(cell.start, m.index), row, cell.col) : undefined;
      if (comment) out.set(sheet, [...(out.get(sheet) ?? []), comment]);
      cell = undefined;
    } else {
      if (!selfClosing && name === 'table:table-cell') cell = { start: m.index + m[0].length, col };
      col += repeated(attrs, 'columns');
    }
  }
  return out;
}

/** The comment in a cell's XML (its first), on the cell's address. */
function cellComment(inner: string, row: number, col: number): ReviewComment | undefined {
  const start = inner.indexOf('<office:annotation');
  const end = start < 0 ? -1 : inner.indexOf('</office:annotation>', start);
  return end < 0 ? undefined : commentOf(inner.slice(start, end), XLSX.utils.encode_cell({ r: row, c: col }));
}
