import iconv from 'iconv-lite';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import type { Block } from '../../markdown/model';
import { renderMarkdown } from '../../markdown/writer';
import { bold, escapeText, italic, link, strike } from '../../markdown/inline';
import { nestListItems, type FlatListItem } from '../../markdown/lists';

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
}

/** One output stream: the body, or a footnote being read. */
interface Sink {
  para: string;
  run: string;
  runStyle: { bold: boolean; italic: boolean; strike: boolean };
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

class RtfReader {
  private readonly blocks: Block[] = [];
  private readonly items: FlatListItem[] = [];
  private readonly footnotes: string[] = [];
  private readonly meta: Record<string, string> = {};
  private readonly fontCodepage = new Map<number, string>();
  private readonly styleNames = new Map<number, string>();
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
  private cells: string[] = [];
  private cellText = '';
  private rows: string[][] = [];

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
        this.flushRun();
        this.stack.push(this.st);
        this.st = { ...this.st, closes: undefined, styleNumber: undefined, fontNumber: undefined };
        i++;
      } else if (ch === '}') {
        this.flushRun();
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
    this.flushRun();
    this.endParagraph();
    this.flushTable();
    this.flushList();
    const notes: Block[] = this.footnotes.length
      ? [
          {
            type: 'notes',
            notes: this.footnotes.map((n, k) => ({ id: String(k + 1), blocks: [{ type: 'paragraph', text: n }] })),
          },
        ]
      : [];
    return {
      markdown: renderMarkdown([...this.blocks, ...notes]),
      metadata: { title: clean(this.meta.title), author: clean(this.meta.author), page_count: 0 },
    };
  }

  private closeGroup(): void {
    const closing = this.st;
    if (closing.dest === 'stylesheet' && closing.styleNumber !== undefined) {
      this.styleNames.set(closing.styleNumber, this.styleName.replace(/;\s*$/, '').trim());
      this.styleName = '';
    }
    this.st = this.stack.pop() ?? this.st;
    if (closing.closes === 'footnote') {
      this.endParagraph();
      const note = this.sinks.pop();
      this.footnotes[this.footnotes.length - 1] = [this.pendingNote, note?.para ?? '']
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      this.pendingNote = '';
    } else if (closing.closes === 'link' && closing.field) {
      const href = hyperlinkTarget(closing.field.instr);
      const start = closing.linkStart ?? 0;
      const text = this.sink.para.slice(start);
      if (href && text.trim()) this.sink.para = this.sink.para.slice(0, start) + link(text.trim(), href);
    }
    this.sink.runStyle = { bold: this.st.bold, italic: this.st.italic, strike: this.st.strike };
  }

  /** Text of footnote paragraphs that ended before the footnote group closed. */
  private pendingNote = '';

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
      this.st.dest = this.st.dest === 'fldinst' ? 'fldinst' : 'skip';
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
          st.linkStart = this.sink.para.length;
        }
        return;
      case 'footnote':
        if (st.dest !== 'text') return;
        this.flushRun();
        this.footnotes.push('');
        this.sink.para += `[^${this.footnotes.length}]`;
        this.sinks.push(newSink());
        st.closes = 'footnote';
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
      if (word === 's' && param !== undefined) st.styleNumber = param;
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
        this.char('\n');
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
      case 'striked': {
        this.flushRun();
        const value = param !== 0;
        if (word === 'b') st.bold = value;
        else if (word === 'i') st.italic = value;
        else st.strike = value;
        break;
      }
      case 'v':
        this.flushRun();
        st.hidden = param !== 0;
        break;
      case 'plain':
        this.flushRun();
        st.bold = st.italic = st.strike = st.hidden = false;
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
      case 'text':
        if (st.hidden) return;
        if (
          this.sink.runStyle.bold !== st.bold ||
          this.sink.runStyle.italic !== st.italic ||
          this.sink.runStyle.strike !== st.strike
        ) {
          this.flushRun();
        }
        this.sink.run += ch;
        return;
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
    if (sink.run) {
      let md = escapeText(sink.run);
      if (sink.run.trim()) {
        if (sink.runStyle.strike) md = strike(md);
        if (sink.runStyle.italic) md = italic(md);
        if (sink.runStyle.bold) md = bold(md);
      }
      sink.para += md;
    }
    sink.run = '';
    sink.runStyle = { bold: this.st.bold, italic: this.st.italic, strike: this.st.strike };
  }

  private paragraphBreak(): void {
    this.flushRun();
    if (this.sinks.length) {
      this.pendingNote += ` ${this.sink.para}`;
      this.sink.para = '';
      return;
    }
    if (this.pp.inTable) {
      this.cellText += `${this.body.para} `;
      this.body.para = '';
      return;
    }
    this.endParagraph();
  }

  private endParagraph(): void {
    this.flushRun();
    if (this.sinks.length) return;
    const text = tidy(this.body.para);
    const marker = this.marker?.trim();
    this.body.para = '';
    this.marker = undefined;
    if (!text) return;
    if (this.pp.inTable) {
      this.cellText += `${text} `;
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
      this.blocks.push({ type: 'heading', level, text: text.replace(/^\*\*([^*]+)\*\*$/, '$1') });
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
    this.cells.push(tidy(`${this.cellText} ${this.body.para}`).replace(/\n/g, ' '));
    this.cellText = '';
    this.body.para = '';
  }

  private endRow(): void {
    if (this.cells.length) this.rows.push(this.cells);
    this.cells = [];
  }

  private flushTable(): void {
    if (this.cells.length) this.endRow();
    if (this.rows.length) {
      this.flushList();
      if (this.rows.some((r) => r.some((c) => c))) this.blocks.push({ type: 'table', rows: this.rows });
    }
    this.rows = [];
  }

  private flushList(): void {
    if (this.items.length) this.blocks.push(...nestListItems(this.items.splice(0)));
  }
}

function newSink(): Sink {
  return { para: '', run: '', runStyle: { bold: false, italic: false, strike: false } };
}

function hyperlinkTarget(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/i.exec(instr) ?? /^\s*HYPERLINK\s+([^\s"\\]+)/i.exec(instr);
  return m && !/^\s*HYPERLINK\s+\\l/i.test(instr) ? m[1] : undefined;
}

function tidy(md: string): string {
  return md
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
