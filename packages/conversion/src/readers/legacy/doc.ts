import WordExtractor from 'word-extractor';
import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { text as plain, type Block, type Inline } from '../../document/model';
import { collapseSpaces, joinedByBreaks, styled, withoutWholeEmphasis } from '../../document/builders';
import { inlineText, isBlankInline } from '../../document/predicates';
import { nestListItems, type FlatListItem } from '../../document/lists';
import CFB from 'cfb';
import { openCompoundFile, streamOf, summaryInformation } from '../shared/ole';
import {
  readWordDocument,
  TC_FIRST_MERGED,
  TC_MERGED,
  TC_VERT_MERGE,
  TC_VERT_RESTART,
  WordFormatError,
  type RowGeometry,
  type WordDocument,
  type WordRun,
} from './word97';
import { gridRows, type CellDef } from '../shared/table-grid';
import { NO_ALT_TEXT } from '../shared/alt-text';
import { definitionLists, type DefinitionRole } from '../shared/definition-lists';
import { withDrawnLists } from '../shared/drawn-lists';
import { readWord6Document, readWord6Text, word6Lines, Word6FormatError, WORD6_IDENT } from './word6';

/**
 * DOC (Word 97-2003): our own reader of the binary format (./word97.ts) gives paragraphs with
 * their styles, so headings, lists, tables, emphasis, links and notes come through. Word 6/95 files
 * are read as text (./word6.ts); a file it can't follow (a damaged table stream) falls back to
 * word-extractor's plain text, rebuilt into paragraphs and cell-marked table rows.
 */
export const docReader: Reader = {
  name: 'doc',
  async read(input) {
    const cfb = openCompoundFile(input, 'DOC file');
    const info = summaryInformation(cfb);
    const metadata = { title: info.title, author: info.author, page_count: info.pages ?? 0 };
    const word = streamOf(cfb, 'WordDocument');
    if (!word)
      throw new ConversionError('corrupt_file', 'The file has no WordDocument stream: it is not a Word document.');
    if (word.length >= 2 && word.readUInt16LE(0) === WORD6_IDENT) return { blocks: word6Blocks(word), metadata };
    try {
      const doc = readWordDocument(word, { '0Table': streamOf(cfb, '0Table'), '1Table': streamOf(cfb, '1Table') });
      const { blocks, pageCount } = wordBlocks(doc, objectPoolBlocks(cfb, doc));
      return { blocks, metadata: metadata, pages: Array.from({ length: pageCount }, (_, i) => i + 1) };
    } catch (err) {
      if (!(err instanceof WordFormatError)) throw err;
      if (err.message === 'encrypted')
        throw new ConversionError('encrypted_file', 'The DOC file is password-protected.');
    }
    return { blocks: await plainTextBlocks(input), metadata: metadata };
  },
};

/**
 * The document as blocks: headings, list runs nested by level, table rows, notes at the end; each
 * body block on the page it starts on, counted at the text's page breaks (a list or table being
 * read when a break comes stays on the page where it started).
 */
function wordBlocks(
  doc: WordDocument,
  objects: ReadonlyMap<number, Block[]> = new Map(),
): { blocks: Block[]; pageCount: number } {
  let blocks: Block[] = [];
  // Embedded objects read as blocks (charts) follow their paragraph, or the table they stand in.
  let objectsAfter: Block[] = [];
  let tableObjects: Block[] = [];
  const marks: number[] = [];
  let pendingBreaks = 0;
  let listRun: FlatListItem[] = [];
  let rows: Inline[][][] = [];
  let geometry: Array<RowGeometry | undefined> = [];
  let codeBefore = false;
  // Paragraphs in a definition list's term or definition style, by their text.
  const roles = new WeakMap<Inline[], DefinitionRole>();
  let row: Inline[][] = [];
  let cell: Inline[][] = [];
  const cellText = (): Inline[] => joinedByBreaks(cell);
  const flushList = (): void => {
    if (listRun.length) blocks.push(...nestListItems(listRun));
    listRun = [];
  };
  const flushTable = (): void => {
    if (cell.length) row.push(cellText());
    if (row.length) rows.push(row);
    if (rows.length) blocks.push({ type: 'table', rows: dropEmptyTrailingColumns(onGrid(rows, geometry)) });
    blocks.push(...tableObjects);
    tableObjects = [];
    rows = [];
    geometry = [];
    row = [];
    cell = [];
  };
  const markBreaks = (): void => {
    const open = listRun.length || rows.length || row.length || cell.length ? 1 : 0;
    for (; pendingBreaks > 0; pendingBreaks--) marks.push(blocks.length + open);
  };
  for (const p of doc.body) {
    if (objectsAfter.length) {
      flushList();
      blocks.push(...objectsAfter);
      objectsAfter = [];
    }
    markBreaks();
    pendingBreaks = p.pageBreaksAfter ?? 0;
    const text = inlineNodes(p.runs, objects);
    const empty = isEmpty(text);
    const read = p.runs.flatMap((r) => (r.special?.kind === 'object' ? (objects.get(r.special.storage) ?? []) : []));
    if (p.tableDepth > 0) {
      tableObjects.push(...read);
      flushList();
      // A nested table's row end only ends a row of that table: its cells' text stays in the outer cell.
      if (p.rowEnd && p.tableDepth > 1) continue;
      if (p.rowEnd) {
        if (cell.length) row.push(cellText());
        rows.push(row);
        geometry.push(p.row);
        row = [];
        cell = [];
        continue;
      }
      if (!empty) cell.push(text);
      if (p.cellEnd && p.tableDepth === 1) {
        row.push(cellText());
        cell = [];
      }
      continue;
    }
    flushTable();
    objectsAfter.push(...read);
    if (p.code) {
      flushList();
      // Code paragraphs in a row are one block, blank lines inside kept, as in the DOCX reader.
      // The runs as typed: indentation and spacing are the code's own.
      const line = p.runs.map((r) => (r.special ? '' : r.text)).join('');
      const last = blocks[blocks.length - 1];
      if (codeBefore && last?.type === 'code') last.text += `\n${line}`;
      else if (!empty) blocks.push({ type: 'code', text: line });
      codeBefore = codeBefore || !empty;
      continue;
    }
    codeBefore = false;
    if (p.list && !empty) {
      listRun.push({ level: p.list.level, ordered: p.list.ordered, value: p.list.value, list: p.list.list, text });
      continue;
    }
    flushList();
    if (empty) continue;
    // A heading style on a paragraph of pictures only (a logo) makes no heading, as in the DOCX reader.
    if (p.heading && (p.label || inlineText(text).trim()))
      blocks.push({
        type: 'heading',
        level: p.heading,
        // Bold set on every run of a heading repeats what its style does (as in the RTF reader).
        text: [...(p.label ? [{ type: 'text' as const, text: `${p.label} ` }] : []), ...withoutWholeEmphasis(text)],
      });
    else if (p.role === 'quote') blocks.push({ type: 'quote', blocks: [{ type: 'paragraph', text }] });
    else {
      blocks.push({ type: 'paragraph', text });
      if (p.role) roles.set(text, p.role);
    }
  }
  flushTable();
  flushList();
  blocks.push(...objectsAfter);
  markBreaks();
  let page = 1;
  for (let i = 0; i < blocks.length; i++) {
    while (page <= marks.length && marks[page - 1]! <= i) page++;
    blocks[i] = { ...blocks[i]!, page };
  }
  blocks = withDrawnLists(definitionLists(blocks, (b) => (b.type === 'paragraph' ? roles.get(b.text) : undefined)));
  const notes = doc.notes.filter((n) => n.paragraphs.some((p) => !isEmpty(inlineNodes(p.runs))));
  if (notes.length) {
    blocks.push({
      type: 'notes',
      notes: notes.map((n) => ({
        id: n.label,
        blocks: n.paragraphs
          .map((p) => inlineNodes(p.runs))
          .filter((t) => !isEmpty(t))
          .map((text, i): Block => ({
            type: 'paragraph',
            text: i || n.author === undefined ? text : collapseSpaces([commentLead(n.author), ...text]),
          })),
      })),
    });
  }
  return { blocks, pageCount: marks.length + 1 };
}

/** "Comment by <author>: " before a comment's text, as the DOCX, RTF and ODT readers write it. */
function commentLead(author: string): Inline {
  return plain(author.trim() ? `Comment by ${author.trim()}: ` : 'Comment: ');
}

/**
 * A paragraph's runs as inline nodes: emphasis and links kept, pictures (and embedded objects not
 * read as blocks, `lifted`) as placeholders, note marks as references.
 */
function inlineNodes(runs: WordRun[], lifted: ReadonlyMap<number, Block[]> = new Map()): Inline[] {
  const out: Inline[] = [];
  for (const run of mergeRuns(runs)) {
    if (run.special?.kind === 'object' && lifted.has(run.special.storage)) continue;
    if (run.special?.kind === 'picture' || run.special?.kind === 'object')
      out.push({ type: 'image', alt: NO_ALT_TEXT });
    else if (run.special?.kind === 'note') out.push({ type: 'noteRef', id: run.special.label });
    else {
      run.text.split('\n').forEach((line, i) => {
        if (i) out.push({ type: 'break' });
        // Inline code keeps its spaces as typed.
        const node: Inline =
          run.code && line.trim() ? { type: 'code', text: line } : { type: 'text', text: line.replace(/[ \t]+/g, ' ') };
        let nodes = styled([node], run);
        if (run.link) nodes = [{ type: 'link', url: run.link, children: nodes }];
        out.push(...nodes);
      });
    }
  }
  return collapseSpaces(out);
}

// The OLE object reader (with SheetJS) loads with the first embedded object, not with every DOC.
/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const oleObjects = () => require('../shared/ole-objects') as typeof import('../shared/ole-objects');

/** At most this many embedded objects are read per document, each at most this large (as a PPT's). */
const MAX_OBJECTS = 32;
const MAX_OBJECT_BYTES = 32 * 1024 * 1024;

/**
 * The embedded objects of the body that read as blocks, by storage number: charts (MS Graph, Excel,
 * LibreOffice's ODF chart) and worksheets, read as a PPT's are (shared/ole-objects), each from its
 * `ObjectPool/_<n>` storage copied out as a compound file of its own.
 */
function objectPoolBlocks(cfb: CFB.CFB$Container, doc: WordDocument): Map<number, Block[]> {
  const out = new Map<number, Block[]>();
  const storages = new Set(
    doc.body.flatMap((p) => p.runs.flatMap((r) => (r.special?.kind === 'object' ? [r.special.storage] : []))),
  );
  for (const storage of [...storages].slice(0, MAX_OBJECTS)) {
    const prefix = `/OBJECTPOOL/_${storage}/`;
    const sub = CFB.utils.cfb_new();
    let size = 0;
    cfb.FullPaths.forEach((full, i) => {
      const at = full.toUpperCase().indexOf(prefix);
      const entry = cfb.FileIndex[i];
      if (at < 0 || entry?.type !== 2 || !entry.content) return;
      size += entry.content.length;
      if (size <= MAX_OBJECT_BYTES)
        CFB.utils.cfb_add(sub, full.slice(at + prefix.length), Buffer.from(entry.content as Uint8Array));
    });
    if (sub.FileIndex.length <= 1 || size > MAX_OBJECT_BYTES) continue;
    const blocks = oleObjects().embeddedObjectBlocks({
      progId: '',
      storage: Buffer.from(CFB.write(sub, { type: 'buffer' }) as Buffer),
      compressed: false,
    });
    if (blocks.length) out.set(storage, blocks);
  }
  return out;
}

/** Nothing a reader would see. */
function isEmpty(nodes: Inline[]): boolean {
  return isBlankInline(nodes);
}

/** Neighbouring runs with the same formatting as one, so emphasis markers don't meet mid-word. */
function mergeRuns(runs: WordRun[]): WordRun[] {
  const out: WordRun[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    const same =
      last &&
      !last.special &&
      !run.special &&
      last.bold === run.bold &&
      last.italic === run.italic &&
      last.position === run.position &&
      last.code === run.code &&
      last.link === run.link;
    if (same) last.text += run.text;
    else out.push({ ...run });
  }
  return out;
}

/** Rows without the trailing columns that are empty in every row (the writer pads short rows). */
/**
 * Rows on the column grid their cell edges make, merged cells repeated over what they span (as
 * the DOCX and RTF readers): a wide cell over several columns, Word 97's horizontally merged cells,
 * vertical merges. Rows are kept as read when any row's cells don't match its definition. Rows whose
 * edges don't line up (each row drawn on its own, offset or split anew: Word 6 forms and price lists)
 * make a grid of many slivers, every cell repeated over several; when it has more than half as many
 * columns again as the widest row has cells, each row keeps its own cells, a merge as one cell.
 */
/** A grid this many times wider than the widest row's own cells is made of misaligned rows. */
const MISALIGNED_GRID = 1.5;

function onGrid(rows: Inline[][][], geometry: Array<RowGeometry | undefined>): Inline[][][] {
  const defined = rows.map((cells, i) => {
    const g = geometry[i];
    if (!g || g.merges.length !== cells.length) return undefined;
    const defs = g.merges.map((flags, k): CellDef => ({
      right: g.edges[k + 1],
      mergedLeft: (flags & TC_MERGED) !== 0 && (flags & TC_FIRST_MERGED) === 0,
      mergedUp: (flags & TC_VERT_MERGE) !== 0 && (flags & TC_VERT_RESTART) === 0,
    }));
    return { cells, defs };
  });
  if (defined.some((r) => !r)) return rows;
  const grid = gridRows(
    defined.map((r) => r!),
    (cell) => cell,
  );
  const own = defined.map((r) => r!.cells.filter((_, k) => !r!.defs[k]!.mergedLeft));
  const widest = Math.max(...own.map((cells) => cells.length));
  const columns = Math.max(...grid.map((cells) => cells.length));
  return columns > widest * MISALIGNED_GRID ? own : grid;
}

function dropEmptyTrailingColumns(rows: Inline[][][]): Inline[][][] {
  let width = Math.max(...rows.map((r) => r.length));
  while (width > 1 && rows.every((r) => isEmpty(r[width - 1] ?? []))) width--;
  return rows.map((r) => r.slice(0, width));
}

/**
 * A Word 6.0/95 document (which word-extractor refuses): read as a Word 97 one is, with its styles,
 * tables, numbering and footnotes (Word 6 property runs). A double-byte (Far East) document is read
 * as text: paragraphs, footnotes after a rule, as for word-extractor's text.
 */
function word6Blocks(word: Buffer): Block[] {
  let text: ReturnType<typeof readWord6Text>;
  try {
    text = readWord6Text(word);
    const doc = structuredWord6(word);
    if (doc) {
      const blocks = wordBlocks(doc).blocks;
      // Footnote text whose references can't be placed (no footnote tables) still comes out, after a rule.
      const notes = doc.notes.length ? '' : word6Lines(text.footnotes).trim();
      return notes ? [...blocks, { type: 'rule' }, ...textToBlocks(notes)] : blocks;
    }
  } catch (err) {
    if (!(err instanceof Word6FormatError)) throw err;
    if (err.message === 'encrypted') throw new ConversionError('encrypted_file', 'The DOC file is password-protected.');
    throw new ConversionError('corrupt_file', `The Word 6/95 file could not be read: ${err.message}.`);
  }
  const blocks = textToBlocks(word6Lines(text.body));
  const notes = word6Lines(text.footnotes).trim();
  if (notes) blocks.push({ type: 'rule' }, ...textToBlocks(notes));
  return blocks;
}

/**
 * The Word 6 document with its structure, or undefined when its property pages or style sheet can't be
 * followed (damaged tables): then its text alone is read, as before structure was read.
 */
function structuredWord6(word: Buffer): ReturnType<typeof readWord6Document> {
  try {
    return readWord6Document(word);
  } catch (err) {
    if (err instanceof Word6FormatError) throw err;
    return undefined;
  }
}

/** word-extractor's text of a document our reader can't follow. */
async function plainTextBlocks(input: Buffer): Promise<Block[]> {
  let doc: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    doc = await new WordExtractor().extract(input);
  } catch (err) {
    const message = (err as Error).message;
    if (/encrypt/i.test(message)) throw new ConversionError('encrypted_file', 'The DOC file is password-protected.');
    throw new ConversionError('corrupt_file', `The DOC file could not be read: ${message}`);
  }
  const blocks = textToBlocks(doc.getBody());
  const notes = [doc.getFootnotes(), doc.getEndnotes()].join('\n').trim();
  if (notes) {
    blocks.push({ type: 'rule' });
    blocks.push(...textToBlocks(notes));
  }
  return blocks;
}

/** Paragraph text with Word's cell marks (tab-separated cells, rows ending in a blank cell) to blocks. */
function textToBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let table: Inline[][][] = [];
  const flushTable = (): void => {
    if (table.length) blocks.push({ type: 'table', rows: table });
    table = [];
  };
  for (const raw of text.split(/\n+/)) {
    const line = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').trim();
    if (raw.includes('\t') && raw.split('\t').length >= 2) {
      table.push(raw.split('\t').map((c) => [plain(c.trim())]));
      continue;
    }
    flushTable();
    if (!line) continue;
    const bullet = /^[•·▪◦\-–]\s+(.*)$/.exec(line);
    if (bullet) blocks.push({ type: 'list', ordered: false, items: [{ text: [plain(bullet[1]!)] }] });
    else blocks.push({ type: 'paragraph', text: [plain(line)] });
  }
  flushTable();
  return mergeLists(blocks);
}

function mergeLists(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (b.type === 'list' && prev?.type === 'list' && prev.ordered === b.ordered) prev.items.push(...b.items);
    else out.push(b);
  }
  return out;
}
