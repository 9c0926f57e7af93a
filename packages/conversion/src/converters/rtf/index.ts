import iconv from 'iconv-lite';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import type { Block, Inline, Note } from '../../markdown/model';
import { documentOutput } from '../../markdown/writer';
import { renderInline } from '../../markdown/inline';
import { nestListItems, type FlatListItem } from '../../markdown/lists';
import { collapseSpaces, styled, type Position } from '../../markdown/nodes';
import { hyperlinkTarget } from '../word-fields';

/** Destinations whose content is never document text. */
const SKIP = new Set([
  'colortbl',
  'pict',
  'object',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'pgdsctbl',
  'filetbl',
  'revtbl',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'shp',
  'shpinst',
  'fldtype',
  'mmathPr',
  'userprops',
  'docvar',
  'template',
  'operator',
]);

const META_FIELDS = new Set(['title', 'author', 'subject', 'keywords', 'operator', 'company']);

/** Windows font charsets (\fcharsetN) to code pages, for documents that mix scripts by font. */
const CHARSET_CODEPAGE: Record<number, string> = {
  128: 'cp932',
  129: 'cp949',
  134: 'cp936',
  136: 'cp950',
  161: 'cp1253',
  162: 'cp1254',
  163: 'cp1258',
  177: 'cp1255',
  178: 'cp1256',
  186: 'cp1257',
  204: 'cp1251',
  222: 'cp874',
  238: 'cp1250',
};

const SYMBOL_WORDS: Record<string, string> = {
  emdash: '—',
  endash: '–',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  bullet: '•',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
  tab: ' ',
};

type Dest = 'text' | 'skip' | 'fldinst' | 'listtext' | 'meta' | 'fonttbl' | 'stylesheet';

interface Field {
  instr: string;
}

interface GroupState {
  dest: Dest;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  /** Raised or lowered (\super, \sub, \up, \dn). */
  position?: Position;
  hidden: boolean;
  uc: number;
  codepage: string;
  metaField?: string;
  field?: Field;
  /** Set on the group that opened a footnote or a hyperlink result, to close it when the group ends. */
  closes?: 'footnote' | 'link';
  linkStart?: number;
  fontNumber?: number;
  styleNumber?: number;
  /** In a \cs style definition: its number and the formatting it sets. */
  charStyle?: { number: number; format: Partial<RunStyle> };
  /** After \* in the style sheet: a \cs definition follows, or a destination to skip. */
  starred?: boolean;
}

type RunStyle = Pick<GroupState, 'bold' | 'italic' | 'strike' | 'position'>;

/** One output stream: the body, or a footnote being read. */
interface Sink {
  /** The paragraph being read, as inline nodes. */
  nodes: Inline[];
  /** Text of the current run (one formatting), not yet a node. */
  run: string;
  runStyle: RunStyle;
  /** A footnote's paragraphs read so far. */
  paragraphs: Inline[][];
  /** The footnote this sink reads. */
  note?: Note;
}

/**
 * RTF through a small tokenizer over groups and control words: paragraphs with bold/italic/strike
 * runs, headings from outline levels and "heading N" styles, lists from \\listtext markers, tables
 * (\\trowd … \\cell … \\row), HYPERLINK fields, footnotes, \\'hh bytes decoded through the document
 * or font code page (iconv-lite), \\uN escapes with their \\ucN fallback skipped, and the \\info title
 * and author. No npm RTF parser handles code pages, fields and tables together, so this is ours.
 */
export const rtfConverter: Converter = {
  name: 'rtf',
  extensions: ['rtf'],
  async convert(input) {
    const src = input.toString('latin1');
    if (!/^\s*\{\\rtf/.test(src)) {
      throw new ConversionError('corrupt_file', 'The file is not RTF (it does not start with {\\rtf).');
    }
    return new RtfReader(src).read();
  },
};

/** Applies a formatting control word (bold, italic, strike, raise) to `target`; others are ignored. */
function runFormatting(target: Partial<RunStyle>, word: string, param: number | undefined): void {
  switch (word) {
    case 'b':
    case 'i':
    case 'strike':
    case 'striked': {
      const value = param !== 0;
      if (word === 'b') target.bold = value;
      else if (word === 'i') target.italic = value;
      else target.strike = value;
      break;
    }
    case 'super':
    case 'sub':
      target.position = param === 0 ? undefined : word;
      break;
    case 'nosupersub':
      target.position = undefined;
      break;
    case 'up':
    case 'dn': {
      // Raised or lowered by N half-points (6 when N is left out); 0 is the baseline.
      const by = param ?? 6;
      target.position = by === 0 ? undefined : (word === 'up') === by > 0 ? 'super' : 'sub';
      break;
    }
    default:
      break;
  }
}

class RtfReader {
  private readonly blocks: Block[] = [];
  private readonly items: FlatListItem[] = [];
  private readonly notes: Note[] = [];
  private readonly meta: Record<string, string> = {};
  private readonly fontCodepage = new Map<number, string>();
  private readonly styleNames = new Map<number, string>();
  /** Character styles (\csN) by number: the formatting each sets. */
  private readonly charStyles = new Map<number, Partial<RunStyle>>();
  private styleName = '';
  private bytes: number[] = [];
  private skipChars = 0;
  private body: Sink = newSink();
  private sinks: Sink[] = [];
  private st: GroupState;
  private readonly stack: GroupState[] = [];
  private readonly docCodepage: string;
  /** Paragraph properties, reset by \pard. */
  private pp = { inTable: false, outline: -1, style: 0, list: false, level: 0 };
  /** The list marker (\listtext) of the paragraph being read; it may come before or after \pard. */
  private marker: string | undefined;
  private cells: Inline[][] = [];
  /** Paragraphs of the table cell being read, before its current one. */
  private cell: Inline[] = [];
  private rows: Inline[][][] = [];

  constructor(private readonly src: string) {
    const ansi = /\\ansicpg(\d+)/.exec(src.slice(0, 4096))?.[1];
    this.docCodepage = ansi && iconv.encodingExists(`cp${ansi}`) ? `cp${ansi}` : 'cp1252';
    this.st = {
      dest: 'text',
      bold: false,
      italic: false,
      strike: false,
      hidden: false,
      uc: 1,
      codepage: this.docCodepage,
    };
  }

  private get sink(): Sink {
    return this.sinks[this.sinks.length - 1] ?? this.body;
  }

  read(): { markdown: string; metadata: { title: string; author: string; page_count: number } } {
    const src = this.src;
    let i = 0;
    while (i < src.length) {
      const ch = src[i]!;
      if (ch === '{') {
        if (this.bytes.length) this.flushBytes();
        this.stack.push(this.st);
        this.st = {
          ...this.st,
          closes: undefined,
          styleNumber: undefined,
          fontNumber: undefined,
          charStyle: undefined,
          starred: undefined,
        };
        i++;
      } else if (ch === '}') {
        if (this.bytes.length) this.flushBytes();
        this.closeGroup();
        i++;
      } else if (ch === '\\') {
        i = this.control(i);
      } else if (ch === '\r' || ch === '\n') {
        i++;
      } else {
        if (this.skipChars > 0) this.skipChars--;
        else this.char(ch === '\t' ? ' ' : ch);
        i++;
      }
    }
    // A file cut off inside a footnote keeps the note's text.
    while (this.sinks.length) this.closeNote();
    this.endParagraph();
    this.flushTable();
    this.flushList();
    const notes: Block[] = this.notes.length ? [{ type: 'notes', notes: this.notes }] : [];
    return documentOutput([...this.blocks, ...notes], {
      title: clean(this.meta.title),
      author: clean(this.meta.author),
      page_count: 0,
    });
  }

  private closeGroup(): void {
    const closing = this.st;
    if (closing.dest === 'stylesheet' && closing.styleNumber !== undefined) {
      this.styleNames.set(closing.styleNumber, this.styleName.replace(/;\s*$/, '').trim());
      this.styleName = '';
    }
    if (closing.dest === 'stylesheet' && closing.charStyle) {
      this.charStyles.set(closing.charStyle.number, closing.charStyle.format);
      this.styleName = '';
    }
    if (closing.closes === 'footnote') {
      this.closeNote();
    } else if (closing.closes === 'link' && closing.field) {
      this.flushRun();
      const href = hyperlinkTarget(closing.field.instr);
      const nodes = this.sink.nodes;
      const start = Math.min(closing.linkStart ?? 0, nodes.length);
      if (href && renderInline(nodes.slice(start)).trim()) {
        nodes.push({ type: 'link', url: href, children: nodes.splice(start) });
      }
    }
    this.st = this.stack.pop() ?? this.st;
  }

  /** Starts reading a footnote: a reference where it stands, its text into a sink of its own. */
  private openNote(): void {
    this.flushRun();
    const note: Note = { id: String(this.notes.length + 1), blocks: [] };
    this.notes.push(note);
    this.sink.nodes.push({ type: 'noteRef', id: note.id });
    this.sinks.push({ ...newSink(), note });
  }

  /** Ends the footnote being read: its paragraphs become the note's blocks. */
  private closeNote(): void {
    this.paragraphBreak();
    const sink = this.sinks.pop();
    if (sink?.note) sink.note.blocks = sink.paragraphs.map((text) => ({ type: 'paragraph', text }));
  }

  private control(i: number): number {
    const src = this.src;
    const next = src[i + 1] ?? '';
    if (next === "'") {
      const byte = parseInt(src.slice(i + 2, i + 4), 16);
      if (this.skipChars > 0) this.skipChars--;
      else if (Number.isFinite(byte)) this.bytes.push(byte);
      return i + 4;
    }
    if (next === '*') {
      // In the style sheet \* marks character style definitions ({\*\cs15 …}), to be read.
      if (this.st.dest === 'stylesheet') this.st.starred = true;
      else this.st.dest = this.st.dest === 'fldinst' ? 'fldinst' : 'skip';
      return i + 2;
    }
    if (!/[a-zA-Z]/.test(next)) {
      switch (next) {
        case '~':
          this.char('\u00a0');
          break;
        case '_':
          this.char('-');
          break;
        case '\\':
        case '{':
        case '}':
          if (this.skipChars > 0) this.skipChars--;
          else this.char(next);
          break;
        case '\n':
        case '\r':
          this.paragraphBreak();
          break;
        default:
          break;
      }
      return i + 2;
    }
    const m = /^\\([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(src.slice(i, i + 48))!;
    const word = m[1]!;
    const param = m[2] !== undefined ? Number(m[2]) : undefined;
    let end = i + m[0].length;
    if (word === 'bin' && param) return end + param;
    if (this.skipChars > 0 && word !== 'u') {
      this.skipChars = 0;
    }
    this.word(word, param);
    if (word === 'u' && this.skipChars > 0 && src[end] === ' ') end++;
    return end;
  }

  private word(word: string, param: number | undefined): void {
    const st = this.st;
    if (SKIP.has(word)) {
      st.dest = 'skip';
      return;
    }
    switch (word) {
      case 'fonttbl':
        st.dest = 'fonttbl';
        return;
      case 'stylesheet':
        st.dest = 'stylesheet';
        return;
      case 'info':
        st.dest = 'meta';
        return;
      case 'fldinst':
        st.dest = 'fldinst';
        return;
      case 'listtext':
      case 'pntext':
        st.dest = 'listtext';
        this.marker = '';
        return;
      case 'field':
        st.field = { instr: '' };
        return;
      case 'fldrslt':
        st.dest = 'text';
        if (st.field && hyperlinkTarget(st.field.instr)) {
          this.flushRun();
          st.closes = 'link';
          st.linkStart = this.sink.nodes.length;
        }
        return;
      case 'footnote':
        if (st.dest !== 'text') return;
        this.openNote();
        st.closes = 'footnote';
        // The note's text is not raised because its mark (`{\super\chftn}`) is.
        st.position = undefined;
        return;
      case 'chftn':
        return;
      default:
        break;
    }
    if (st.dest === 'meta' && META_FIELDS.has(word)) {
      st.metaField = word;
      return;
    }
    if (st.dest === 'fonttbl') {
      if (word === 'f' && param !== undefined) st.fontNumber = param;
      if (word === 'fcharset' && param !== undefined && st.fontNumber !== undefined) {
        const cp = CHARSET_CODEPAGE[param];
        if (cp) this.fontCodepage.set(st.fontNumber, cp);
      }
      return;
    }
    if (st.dest === 'stylesheet') {
      if (st.starred) {
        st.starred = false;
        if (word !== 'cs') st.dest = 'skip';
      }
      if (word === 's' && param !== undefined) st.styleNumber = param;
      else if (word === 'cs') st.charStyle = { number: param ?? 0, format: {} };
      else if (st.charStyle) runFormatting(st.charStyle.format, word, param);
      return;
    }
    switch (word) {
      case 'uc':
        st.uc = param ?? 1;
        return;
      case 'u': {
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        this.char(String.fromCharCode(code));
        this.skipChars = st.uc;
        return;
      }
      case 'f':
        st.codepage = (param !== undefined && this.fontCodepage.get(param)) || this.docCodepage;
        return;
      default:
        break;
    }
    if (st.dest !== 'text') return;
    const symbol = SYMBOL_WORDS[word];
    if (symbol) {
      this.char(symbol);
      return;
    }
    switch (word) {
      case 'par':
        this.paragraphBreak();
        break;
      case 'line':
        if (st.hidden) break;
        this.flushRun();
        this.sink.nodes.push({ type: 'break' });
        break;
      case 'sect':
      case 'page':
        this.paragraphBreak();
        break;
      case 'pard':
        this.pp = { inTable: false, outline: -1, style: 0, list: false, level: 0 };
        break;
      case 'intbl':
        this.pp.inTable = true;
        break;
      case 'outlinelevel':
        this.pp.outline = param ?? -1;
        break;
      case 's':
        this.pp.style = param ?? 0;
        break;
      case 'ls':
        this.pp.list = true;
        break;
      case 'ilvl':
        this.pp.level = param ?? 0;
        break;
      case 'b':
      case 'i':
      case 'strike':
      case 'striked':
      case 'super':
      case 'sub':
      case 'nosupersub':
      case 'up':
      case 'dn':
        runFormatting(st, word, param);
        break;
      case 'cs':
        // Word repeats a character style's formatting after \csN; other writers may not.
        Object.assign(st, this.charStyles.get(param ?? 0));
        break;
      case 'v':
        this.flushRun();
        st.hidden = param !== 0;
        break;
      case 'plain':
        st.bold = st.italic = st.strike = st.hidden = false;
        st.position = undefined;
        break;
      case 'cell':
      case 'nestcell':
        if (word === 'nestcell') this.char(' ');
        else this.endCell();
        break;
      case 'nestrow':
        this.char(' ');
        break;
      case 'row':
        this.endRow();
        break;
      default:
        break;
    }
  }

  private char(ch: string): void {
    const st = this.st;
    if (this.bytes.length) this.flushBytes();
    switch (st.dest) {
      case 'text': {
        if (st.hidden) return;
        const sink = this.sink;
        const style = sink.runStyle;
        const changed =
          style.bold !== st.bold ||
          style.italic !== st.italic ||
          style.strike !== st.strike ||
          style.position !== st.position;
        if (sink.run && changed) this.flushRun();
        if (!sink.run) sink.runStyle = { bold: st.bold, italic: st.italic, strike: st.strike, position: st.position };
        sink.run += ch;
        return;
      }
      case 'fldinst':
        if (st.field) st.field.instr += ch;
        return;
      case 'listtext':
        this.marker = (this.marker ?? '') + ch;
        return;
      case 'meta':
        if (st.metaField) this.meta[st.metaField] = (this.meta[st.metaField] ?? '') + ch;
        return;
      case 'stylesheet':
        this.styleName += ch;
        return;
      default:
        return;
    }
  }

  private flushBytes(): void {
    const bytes = this.bytes;
    this.bytes = [];
    const text = iconv.decode(Buffer.from(bytes), this.st.codepage);
    for (const ch of text) this.char(ch);
  }

  private flushRun(): void {
    if (this.bytes.length) this.flushBytes();
    const sink = this.sink;
    if (!sink.run) return;
    const text: Inline[] = [{ type: 'text', text: sink.run.replace(/[ \t]+/g, ' ') }];
    sink.nodes.push(...(sink.run.trim() ? styled(text, sink.runStyle) : text));
    sink.run = '';
  }

  private paragraphBreak(): void {
    this.flushRun();
    if (this.sinks.length) {
      const sink = this.sink;
      const para = tidy(sink.nodes.splice(0));
      if (para.length) sink.paragraphs.push(para);
      return;
    }
    if (this.pp.inTable) {
      this.addToCell(this.body.nodes.splice(0));
      return;
    }
    this.endParagraph();
  }

  /** A paragraph of a table cell: cells are one line, so paragraphs after the first follow a line break. */
  private addToCell(nodes: Inline[]): void {
    const para = tidy(nodes);
    if (!para.length) return;
    if (this.cell.length) this.cell.push({ type: 'break' });
    this.cell.push(...para);
  }

  private endParagraph(): void {
    this.flushRun();
    if (this.sinks.length) return;
    const text = tidy(this.body.nodes.splice(0));
    const marker = this.marker?.trim();
    this.marker = undefined;
    if (!text.length) return;
    if (this.pp.inTable) {
      this.addToCell(text);
      return;
    }
    this.flushTable();
    const styleName = this.styleNames.get(this.pp.style) ?? '';
    const headingStyle = /^heading\s*(\d)/i.exec(styleName);
    const level = headingStyle
      ? Number(headingStyle[1])
      : /^title$/i.test(styleName)
        ? 1
        : this.pp.outline >= 0 && this.pp.outline < 9
          ? this.pp.outline + 1
          : 0;
    if (level) {
      this.flushList();
      // Heading styles are usually bold; the emphasis says nothing once it is a heading.
      const only = text.length === 1 ? text[0] : undefined;
      this.blocks.push({ type: 'heading', level, text: only?.type === 'strong' ? only.children : text });
    } else if (this.pp.list || marker !== undefined) {
      const ordered = /^(\d{1,4}|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]$/.test(marker ?? '');
      this.items.push({ level: this.pp.level, ordered, value: parseInt(marker ?? '', 10) || 1, text });
    } else {
      this.flushList();
      this.blocks.push({ type: 'paragraph', text });
    }
  }

  private endCell(): void {
    this.flushRun();
    this.flushList();
    this.addToCell(this.body.nodes.splice(0));
    this.cells.push(this.cell);
    this.cell = [];
  }

  private endRow(): void {
    if (this.cells.length) this.rows.push(this.cells);
    this.cells = [];
  }

  private flushTable(): void {
    if (this.cells.length) this.endRow();
    if (this.rows.length) {
      this.flushList();
      if (this.rows.some((r) => r.some((c) => c.length))) this.blocks.push({ type: 'table', rows: this.rows });
    }
    this.rows = [];
  }

  private flushList(): void {
    if (this.items.length) this.blocks.push(...nestListItems(this.items.splice(0)));
  }
}

function newSink(): Sink {
  return { nodes: [], run: '', runStyle: { bold: false, italic: false, strike: false }, paragraphs: [] };
}

/** A paragraph's nodes with white space collapsed, or none when nothing in it would show. */
function tidy(nodes: Inline[]): Inline[] {
  return renderInline(nodes).trim() ? collapseSpaces(nodes) : [];
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
