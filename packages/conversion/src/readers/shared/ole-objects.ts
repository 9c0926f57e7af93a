import { inflateSync } from 'node:zlib';
import CFB from 'cfb';
import * as XLSX from '@e965/xlsx';
import { text, type Block } from '../../document/model';
import { chartDataBlocks } from './charts';
import { sheetRows, tableRegions } from './sheet-grid';
import { readBiffChart, resolveChartCells } from './biff-chart';
import { streamOf } from './ole';
import { odfChart } from './odf-chart';
import { SafeZip } from '../../archive/safe-zip';
import { readWorkbook } from './sheetjs-read';

/** An OLE object embedded in a presentation (a PPT's ExOleObjStg, a PPTX's embeddings part): its program id and its storage's bytes. */
export interface EmbeddedObject {
  progId: string;
  storage: Buffer;
  /** ExOleObjStg instance 1: a 4-byte decompressed size, then zlib data. */
  compressed: boolean;
}

/** Embedded storages larger than this are not charts or small tables: they are skipped unread. */
const MAX_OBJECT_BYTES = 32 * 1024 * 1024;
/** Rows read from an embedded worksheet (a slide shows a small table). */
const MAX_OBJECT_ROWS = 2_000;

/**
 * The content of an embedded chart or worksheet (MS Graph 97, Excel 97 chart or sheet), as
 * blocks: a chart as its title, kind and data table (see chartDataBlocks), a worksheet as the
 * tables of its first sheet. Other objects (Word documents, equations, media) give nothing.
 */
export function embeddedObjectBlocks(object: EmbeddedObject): Block[] {
  const bytes = storageBytes(object);
  if (!bytes) return [];
  let cfb: CFB.CFB$Container;
  try {
    cfb = CFB.read(bytes, { type: 'buffer' });
  } catch {
    return [];
  }
  const workbook = streamOf(cfb, 'Workbook') ?? streamOf(cfb, 'Book');
  if (!workbook) return packagedChartBlocks(streamOf(cfb, 'package_stream'));
  const chart = readBiffChart(workbook);
  let wb: XLSX.WorkBook | undefined;
  const book = (): XLSX.WorkBook | undefined => {
    if (wb) return wb;
    try {
      wb = readWorkbook(bytes, { type: 'buffer', cellNF: true, cellText: true, sheetRows: MAX_OBJECT_ROWS });
    } catch {
      return undefined;
    }
    return wb;
  };
  if (chart?.series.length) {
    resolveChartCells(chart, book());
    return chartDataBlocks(chart);
  }
  const sheets = book();
  const first = sheets?.SheetNames.map((n) => sheets.Sheets[n]!).find((s) => s['!ref']);
  const tables = first ? tableRegions(sheetRows(first, sheets?.Workbook?.WBProps?.date1904 ?? false)) : [];
  const blocks: Block[] = [];
  if (chart?.title)
    blocks.push({ type: 'paragraph', text: [{ type: 'strong', children: [{ type: 'text', text: chart.title }] }] });
  for (const rows of tables) blocks.push({ type: 'table', rows: rows.map((r) => r.map((c) => [text(c)])) });
  return blocks;
}

/**
 * A chart LibreOffice embeds as its own ODF chart document in the object's `package_stream` (its
 * PPT export of any chart): title, kind and data table, as an ODP chart object is read.
 */
function packagedChartBlocks(bytes: Buffer | undefined): Block[] {
  if (!bytes || bytes.length > MAX_OBJECT_BYTES || bytes.readUInt32LE(0) !== 0x04034b50) return [];
  try {
    const zip = new SafeZip(bytes, 'embedded chart');
    if (!zip.textOf('mimetype')?.includes('opendocument.chart')) return [];
    const chart = odfChart(zip, '');
    return chart?.series.length ? chartDataBlocks(chart) : [];
  } catch {
    return [];
  }
}

/**
 * An OLE 1.0 embedded object ([MS-OLEDS] 2.2.4: version, format 2, class, topic and item names, then
 * the native data, the object's compound file), as RTF's \\objdata holds one: read as
 * embeddedObjectBlocks reads the storage.
 */
export function ole1ObjectBlocks(bytes: Buffer): Block[] {
  if (bytes.length < 8 || bytes.readUInt32LE(4) !== 2) return [];
  let at = 8;
  let progId = '';
  for (let k = 0; k < 3; k++) {
    if (at + 4 > bytes.length) return [];
    const length = bytes.readUInt32LE(at);
    if (k === 0)
      progId = bytes.toString('latin1', at + 4, Math.min(bytes.length, at + 4 + length)).replace(/\0.*$/s, '');
    at += 4 + length;
  }
  if (at + 4 > bytes.length) return [];
  const size = bytes.readUInt32LE(at);
  const storage = bytes.subarray(at + 4, at + 4 + size);
  return storage.length === size ? embeddedObjectBlocks({ progId, storage, compressed: false }) : [];
}

function storageBytes(object: EmbeddedObject): Buffer | undefined {
  if (!object.compressed) return object.storage.length <= MAX_OBJECT_BYTES ? object.storage : undefined;
  if (object.storage.length < 4) return undefined;
  const size = object.storage.readUInt32LE(0);
  if (size > MAX_OBJECT_BYTES) return undefined;
  try {
    return inflateSync(object.storage.subarray(4), { maxOutputLength: Math.max(size, 512) });
  } catch {
    return undefined;
  }
}
