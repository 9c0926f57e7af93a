import iconv from 'iconv-lite';
import type { Reader, ReadResult } from '../reader';
import { ConversionError } from '../../types';
import type { Block, Inline, Note } from '../../document/model';
import { nestListItems, type FlatListItem } from '../../document/lists';
import { collapseSpaces, styled, withoutWholeEmphasis, type Position } from '../../document/builders';
import { inlineText, isBlankInline } from '../../document/predicates';
import { MAX_NESTING_DEPTH } from '../shared/nesting-limits';
import { imageAltText } from '../shared/alt-text';
import { CODE_CHAR_STYLE, CODE_CHARS, CODE_STYLE, MONOSPACE, joinsCodeBeside } from '../shared/code-paragraphs';
import { QUOTE_STYLE } from '../shared/quote-styles';
import { DEFINITION_STYLE, TERM_STYLE, definitionLists, type DefinitionRole } from '../shared/definition-lists';
import { headingLevelOfStyleName } from '../shared/heading-styles';
import { hyperlinkTarget } from '../shared/word-fields';
import { ListTables, isLabel, isOneLevelNumber, markerValue, pnWord, type LevelKind } from './lists';
import { MAX_TABLE_DEPTH, RtfTables } from './tables';
import { codepageName, documentCodepage, fontCharsetCodepage } from './codepages';
import { inSymbolFont, symbolFont, symbolFontChar, type SymbolFont } from '../shared/symbol-font';
import { withDrawnLists } from '../shared/drawn-lists';
import { tokenizeRtf } from './tokenizer';

// The OLE object reader (with SheetJS and cfb) loads with the first embedded object, not with every RTF.
/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const oleObjects = () => require('../shared/ole-objects') as typeof import('../shared/ole-objects');

/** Hex digits of an embedded object read at most (its storage at most 32 MB, as a PPT's). */
const MAX_OBJECT_HEX = 64 * 1024 * 1024;

/** An embedded object's \\objdata (hex of an OLE 1.0 object): a chart's or worksheet's blocks, or none. */
function objectDataBlocks(hex: string): Block[] {
  const digits = hex.replace(/[^0-9a-fA-F]/g, '');
  return digits.length >= 16
    ? oleObjects().ole1ObjectBlocks(Buffer.from(digits.slice(0, digits.length & ~1), 'hex'))
    : [];
}

/** Destinations whose content is never document text (headers and footers too, as in the DOCX reader). */
const SKIP = new Set([
  'colortbl',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'rsidtbl',
  'xmlnstbl',
  'pgdsctbl',
  'filetbl',
  'revtbl',
  'nonshppict',
  'nonesttables',
  'shprslt',
  'fldtype',
  'userprops',
  'docvar',
  'template',
  'operator',
  // Destinations writers should mark with \\* but some do not.
  'generator',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'bkmkstart',
  'bkmkend',
  'mmathPr',
  'objclass',
  'datafield',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
  'aftnsepc',
]);

/**
 * The \\* destinations this reader understands; any other \\* group is skipped whole, as the spec
 * asks (\\*\\generator, \\*\\themedata, \\*\\datastore, \\*\\latentstyles, \\*\\bkmkstart …).
 */
const STARRED_READ = new Set([
  'objdata',
  'fldinst',
  // AbiWord writes a field's result as {\*\fldrslt …}: skipping it would lose a link's text.
  'fldrslt',
  'shpinst',
  'shppict',
  'picprop',
  'pn',
  'nesttableprops',
  'listtable',
  'listoverridetable',
  'atnid',
  'atnauthor',
  'annotation',
  'footnote',
  'cs',
]);

const META_FIELDS = new Set(['title', 'author', 'subject', 'keywords', 'company']);

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
};

/** A list marker typed as text before a tab ("\\bullet\\tab", "1.\\tab"), as pandoc 2 and other generators write lists. */
const TYPED_MARKER = /^(?:[•·▪◦‣○■□–-]|\d{1,3}[.)]|[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])$/;

/** The characters TextEdit writes where an attachment stands (¬ in its 8-bit text, or U+FFFC). */
const ATTACHMENT_CHARS = new Set(['\u00ac', '\ufffc']);

/** The most styles followed through \\sbasedon (real chains are a few long; DOCX follows as many). */
const MAX_STYLE_CHAIN = 10;

/** How far into the file the header's \ansicpg and \deff are looked for. */
const HEADER_CHARS = 4096;

/** The longest shape property value kept (alt text and names; shape geometry can be long). */
const MAX_PROPERTY_CHARS = 2000;

/** Word's shape properties that describe a picture, best first, as DOCX's descr, title and name. */
const PICTURE_TEXT_PROPERTIES = ['wzDescription', 'wzTitle', 'wzName'];

type Dest =
  | 'text'
  | 'skip'
  | 'fldinst'
  | 'listtext'
  | 'meta'
  | 'fonttbl'
  | 'stylesheet'
  | 'listtable'
  | 'listoverridetable'
  | 'pn'
  | 'picture'
  | 'shape'
  | 'propertyName'
  | 'propertyValue'
  | 'tableprops'
  | 'object'
  | 'objdata'
  | 'annotationInfo';

/** Words that open a table of definitions (fonts, styles, lists, document info, nested-table properties) read as such. */
const TABLE_DESTINATIONS = new Map<string, Dest>([
  ['fonttbl', 'fonttbl'],
  ['stylesheet', 'stylesheet'],
  ['listtable', 'listtable'],
  ['listoverridetable', 'listoverridetable'],
  ['info', 'meta'],
  ['nesttableprops', 'tableprops'],
]);

interface Field {
  instr: string;
  /** Where the field stands: its result goes there. */
  outer: Dest;
}

/** A paragraph style from \stylesheet: what it makes of the paragraphs that cite it (\sN). */
interface StyleDef {
  number: number;
  name: string;
  /** A paragraph style (\\sN), a character style (\\csN), or another kind (section, table). */
  kind: 'paragraph' | 'character' | 'other';
  /** A character style's bold/italic/strike/raise. */
  format: Partial<RunStyle>;
  basedOn?: number;
  outline?: number;
  ls?: number;
  level?: number;
}

/** A picture (\pict) or a drawing shape (\shp) being read, with its shape properties (\sp). */
interface Drawing {
  props: Record<string, string>;
  /** It stands in document text (not in a header, a skipped fallback or a field's instruction). */
  inText: boolean;
  /** The shape a picture belongs to: the shape's properties describe it, it is placed when the shape ends. */
  shape?: Drawing;
  hasPicture?: boolean;
  /** A TextEdit attachment (\\NeXTGraphic), followed in the text by a character standing for it. */
  attachment?: boolean;
}

interface ShapeProperty {
  name: string;
  value: string;
}

/** Paragraph properties, reset by \pard. */
interface ParaProps {
  inTable: boolean;
  /** Table nesting level (\itapN). */
  itap?: number;
  outline: number;
  style: number;
  ls?: number;
  level?: number;
  /** Left indent in twips (\li). */
  indent?: number;
  /** Legacy paragraph numbering (\pn) in force. */
  pn?: LevelKind;
}

interface GroupState {
  dest: Dest;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  caps: boolean;
  /** The font is monospaced. */
  mono: boolean;
  /** Raised or lowered (\super, \sub, \up, \dn). */
  position?: Position;
  /** In a character style (\\csN) whose name means inline code ("Source Text", "Verbatim Char"). */
  code?: boolean;
  hidden: boolean;
  uc: number;
  codepage: string;
  /** In a symbol font: Symbol's codes are Greek letters and signs, Wingdings' marks (see `symbolFontChar`). */
  symbolFont?: SymbolFont;
  /** Set by \*: the destination the group would have if its first word is one we read. */
  starredFrom?: Dest;
  metaField?: string;
  field?: Field;
  /** Set on the group that opened a note, a link result, a picture or a shape, to finish it when the group ends. */
  closes?: 'footnote' | 'comment' | 'textbox' | 'link' | 'picture' | 'shape' | 'property' | 'pn';
  linkStart?: number;
  fontNumber?: number;
  style?: StyleDef;
  drawing?: Drawing;
  property?: ShapeProperty;
  pn?: LevelKind;
  /** Where an embedded object (\object) stands: its \result goes there. */
  objectOuter?: Dest;
  annotationField?: 'id' | 'author';
  /** The paragraph properties to restore when the group ends (notes and text boxes have their own). */
  restorePp?: ParaProps;
}

type RunStyle = Pick<GroupState, 'bold' | 'italic' | 'strike' | 'position' | 'code'>;

/** One output stream: the body, or a note being read. */
interface Sink {
  /** The paragraph being read, as inline nodes. */
  nodes: Inline[];
  /** Text of the current run (one formatting), not yet a node. */
  run: string;
  runStyle: RunStyle;
  /** A note's paragraphs read so far. */
  paragraphs: Inline[][];
  /** The note this sink reads. */
  note?: Note;
  /** This sink reads a text box, whose paragraphs follow the paragraph it is anchored in. */
  box?: boolean;
  /** A comment's "Comment by …: " lead, put before its first paragraph. */
  lead?: string;
}

/** A list paragraph as the reader collects it: with whether it had its own marker (\listtext). */
type ListParagraph = FlatListItem & { marked: boolean };

/** Text that opens with an RTF control word (`\\pard`, `{\\pard`, `{\\trowd`), as an RTF body does. */
const RTF_BODY = /^\s*\{?\\[a-z]+(-?\d+)?[ \\{}\r\n]/;

/**
 * RTF: ./tokenizer.ts lexes groups and control words, RtfBuilder below gives them meaning: paragraphs with bold/italic/strike
 * runs, headings from "heading N"/Title styles and outline levels (direct or through the style),
 * lists typed by Word's list tables or legacy \\pn numbering, tables with nesting and merged cells,
 * HYPERLINK fields, footnotes, comments, pictures as placeholders, \\'hh bytes decoded through the
 * document or font code page (iconv-lite), \\uN escapes with their \\ucN fallback skipped, and the
 * \\info title and author. npm's RTF packages are HTML renderers or tokenizers alone (rtf-parser,
 * rtf-stream-parser, rtf.js); the tokenizing is the smallest part here, so this is ours.
 */
export const rtfReader: Reader = {
  name: 'rtf',
  async read(input) {
    const src = input.toString('latin1');
    if (/^\s*\{\\rtf/.test(src)) return new RtfBuilder(src).read();
    // The body alone, without the {\rtf1 header and font table: what pandoc writes without --standalone.
    if (RTF_BODY.test(src)) return new RtfBuilder(`{\\rtf1\\ansi ${src}\n}`).read();
    throw new ConversionError('corrupt_file', 'The file is not RTF (it does not start with {\\rtf).');
  },
};

/** Applies a formatting control word (bold, italic, strike, raise) to `target`; others are ignored. */
function runFormatting(target: Partial<RunStyle>, word: string, param: number | undefined): void {
  switch (word) {
    case 'b':
      target.bold = param !== 0;
      break;
    case 'i':
      target.italic = param !== 0;
      break;
    case 'strike':
    case 'striked':
      target.strike = param !== 0;
      break;
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

function newParaProps(): ParaProps {
  return { inTable: false, outline: -1, style: 0 };
}

/** The RTF reader's state machine: what the tokenizer's words and text mean, built into blocks. */
class RtfBuilder {
  private readonly blocks: Block[] = [];
  /** Where each hard page break falls: the index of the first block after it. */
  private readonly pageMarks: number[] = [];
  private items: ListParagraph[] = [];
  private readonly notes: Note[] = [];
  private footnoteCount = 0;
  private commentCount = 0;
  private readonly meta: Record<string, string> = {};
  private readonly fontCodepage = new Map<number, string>();
  private readonly fontNames = new Map<number, string>();
  /**
   * What the body paragraph being read shows: text in monospaced fonts, text in others, and its
   * text as typed (spaces not collapsed, line breaks as "\n"), for a code block's indentation.
   */
  private paragraphFonts = { mono: false, prose: false, typed: '' };
  private readonly styles = new Map<number, StyleDef>();
  /** Character styles (\\csN) by number: the formatting each sets. */
  private readonly charStyles = new Map<number, Partial<RunStyle>>();
  private readonly listTables = new ListTables();
  private readonly tables = new RtfTables();
  private annotation = { id: '', author: '' };
  private bytes: number[] = [];
  private skipChars = 0;
  private body: Sink = newSink();
  private sinks: Sink[] = [];
  private st: GroupState;
  private readonly stack: GroupState[] = [];
  private readonly docCodepage: string;
  private readonly defaultFont: number;
  private pp: ParaProps = newParaProps();
  /** A TextEdit attachment just ended: the character standing for it in the text is not shown. */
  private afterAttachment = false;
  /** Left indents (\\li) of the open levels of a list without list markup. */
  private indents: number[] = [];
  /** The last paragraph read was code: a code paragraph after it joins its block. */
  private lastWasCode = false;
  /** Paragraphs in a definition list's term or definition style, by their text. */
  private readonly definitionRoles = new WeakMap<Inline[], DefinitionRole>();
  /** The last block, when it is a short monospaced paragraph that a code paragraph after it takes in. */
  private lastMonoLine: { block: Block; text: string } | undefined;
  /** Blocks that follow the body paragraph being read: its text boxes' paragraphs, its embedded charts. */
  private readonly afterParagraph: Block[] = [];
  /** The hex digits of the embedded object (\\objdata) being read. */
  private objectHex = '';
  /** The list marker (\listtext) of the paragraph being read; it may come before or after \pard. */
  private marker: string | undefined;

  constructor(private readonly src: string) {
    this.docCodepage = documentCodepage(src.slice(0, HEADER_CHARS));
    this.defaultFont = Number(/\\deff(\d+)/.exec(src.slice(0, HEADER_CHARS))?.[1] ?? 0);
    this.st = {
      dest: 'text',
      bold: false,
      italic: false,
      strike: false,
      caps: false,
      mono: false,
      hidden: false,
      uc: 1,
      codepage: this.docCodepage,
    };
  }

  private get sink(): Sink {
    return this.sinks[this.sinks.length - 1] ?? this.body;
  }

  read(): ReadResult {
    tokenizeRtf(this.src, {
      openGroup: () => this.openGroup(),
      closeGroup: () => {
        if (this.bytes.length) this.flushBytes();
        this.closeGroup();
      },
      hexByte: (byte) => {
        if (this.skipChars > 0) this.skipChars--;
        else if (Number.isFinite(byte)) this.bytes.push(byte);
      },
      starred: () => {
        if (this.st.dest !== 'skip') {
          this.st.starredFrom = this.st.dest;
          this.st.dest = 'skip';
        }
      },
      controlSymbol: (ch) => this.symbol(ch),
      controlWord: (word, param) => {
        // \ucN's replacement characters are skipped only right after a \u.
        if (this.skipChars > 0 && word !== 'u') this.skipChars = 0;
        // Bytes before a control word are text in the formatting they were written in (`\'ef\'f0\b0`).
        if (this.bytes.length) this.flushBytes();
        this.word(word, param);
      },
      text: (ch) => {
        if (this.skipChars > 0) this.skipChars--;
        else if (ch === '\t') this.tab();
        else if (this.st.symbolFont) this.char(inSymbolFont(ch, this.st.symbolFont));
        else this.char(ch);
      },
    });
    // A file cut off inside a note keeps the note's text.
    while (this.sinks.length) this.closeNote();
    this.endParagraph();
    this.flushBoxes();
    this.flushTables();
    this.flushList();
    const notes: Block[] = this.notes.length ? [{ type: 'notes', notes: this.notes }] : [];
    let page = 1;
    const paged = this.blocks.map((block, i) => {
      while (page <= this.pageMarks.length && this.pageMarks[page - 1]! <= i) page++;
      return { ...block, page };
    });
    const roles = this.definitionRoles;
    const body = withDrawnLists(
      definitionLists(paged, (b) => (b.type === 'paragraph' ? roles.get(b.text) : undefined)),
    );
    return {
      blocks: [...body, ...notes],
      pages: Array.from({ length: this.pageMarks.length + 1 }, (_, i) => i + 1),
      metadata: {
        title: clean(this.meta.title),
        author: clean(this.meta.author),
        page_count: 0,
      },
    };
  }

  private openGroup(): void {
    if (this.bytes.length) this.flushBytes();
    if (this.stack.length >= MAX_NESTING_DEPTH) {
      throw new ConversionError(
        'too_large',
        `The RTF file nests groups deeper than ${MAX_NESTING_DEPTH} levels, the most we convert.`,
      );
    }
    const parent = this.st;
    this.stack.push(parent);
    this.st = {
      ...parent,
      closes: undefined,
      starredFrom: undefined,
      fontNumber: undefined,
      restorePp: undefined,
      // Each group directly in \stylesheet defines one style.
      style:
        parent.dest === 'stylesheet' && !parent.style
          ? { number: 0, name: '', kind: 'paragraph', format: {} }
          : parent.style,
    };
  }

  private closeGroup(): void {
    const closing = this.st;
    const parent = this.stack[this.stack.length - 1];
    if (closing.dest === 'stylesheet' && closing.style && closing.style !== parent?.style) {
      closing.style.name = closing.style.name.replace(/;\s*$/, '').trim();
      if (closing.style.kind === 'paragraph') this.styles.set(closing.style.number, closing.style);
      if (closing.style.kind === 'character') {
        const { name, basedOn, format } = closing.style;
        // LibreOffice keeps an ODT's style names as they were ("Source_Text" from pandoc's ODT).
        if (CODE_CHAR_STYLE.test(name.replace(/_/g, ' ')) || this.charStyles.get(basedOn ?? -1)?.code)
          format.code = true;
        this.charStyles.set(closing.style.number, format);
      }
    }
    // Text before any \f is in the default font (\deffN), whose charset may name the code page.
    const defaultCodepage = this.fontCodepage.get(this.defaultFont);
    if (closing.dest === 'fonttbl' && parent && parent.dest !== 'fonttbl' && defaultCodepage) {
      parent.codepage = defaultCodepage;
    }
    if (closing.dest === 'listtable' && parent?.dest !== 'listtable') this.listTables.finish();
    if (closing.dest === 'listoverridetable' && parent?.dest !== 'listoverridetable') this.listTables.finish();
    switch (closing.closes) {
      case 'footnote':
      case 'comment':
        this.closeNote();
        break;
      case 'textbox':
        this.closeTextBox();
        break;
      case 'link':
        this.closeLink(closing);
        break;
      case 'picture':
        this.closePicture(closing.drawing);
        break;
      case 'shape':
        if (closing.drawing?.hasPicture && closing.drawing.inText) this.image(closing.drawing);
        break;
      case 'property':
        this.closeProperty(closing);
        break;
      case 'pn':
        if (closing.pn) this.pp.pn = closing.pn;
        break;
      default:
        break;
    }
    if (closing.restorePp) this.pp = closing.restorePp;
    this.st = this.stack.pop() ?? this.st;
  }

  private closeLink(closing: GroupState): void {
    if (!closing.field) return;
    this.flushRun();
    const href = hyperlinkTarget(closing.field.instr);
    const nodes = this.sink.nodes;
    const start = Math.min(closing.linkStart ?? 0, nodes.length);
    if (href && !isBlankInline(nodes.slice(start))) {
      nodes.push({ type: 'link', url: href, children: nodes.splice(start) });
    }
  }

  private closePicture(picture: Drawing | undefined): void {
    if (!picture) return;
    if (picture.shape) picture.shape.hasPicture = true;
    else if (picture.inText) this.image(picture);
    this.afterAttachment = picture.attachment === true;
  }

  /** A shape property (\sp{\sn name}{\sv value}) onto the picture or shape it describes. */
  private closeProperty(closing: GroupState): void {
    const { property, drawing } = closing;
    if (!property || !drawing) return;
    const name = property.name.trim();
    if (name) drawing.props[name] = property.value.trim();
  }

  /** A picture as an image placeholder, its alt text from the shape properties Word writes. */
  private image(drawing: Drawing): void {
    if (this.st.hidden) return;
    this.flushRun();
    const alt = imageAltText(...PICTURE_TEXT_PROPERTIES.map((p) => drawing.props[p]));
    this.sink.nodes.push({ type: 'image', alt });
  }

  /** Starts reading a note: a reference where it stands, its text into a sink of its own. */
  private openNote(kind: 'footnote' | 'comment'): void {
    this.flushRun();
    const id = kind === 'footnote' ? String(++this.footnoteCount) : `c${++this.commentCount}`;
    const note: Note = { id, blocks: [] };
    this.notes.push(note);
    this.sink.nodes.push({ type: 'noteRef', id });
    const author = this.annotation.author.trim() || this.annotation.id.trim();
    const lead = kind === 'comment' ? (author ? `Comment by ${author}: ` : 'Comment: ') : undefined;
    this.sinks.push({ ...newSink(), note, lead });
    this.annotation = { id: '', author: '' };
    this.st.closes = kind;
    this.st.restorePp = this.pp;
    this.pp = newParaProps();
    // The note's text is not raised because its mark (`{\super\chftn}`) is.
    this.st.position = undefined;
  }

  /** Ends a text box: its paragraphs wait for the end of the paragraph it is anchored in. */
  private closeTextBox(): void {
    this.paragraphBreak();
    const sink = this.sinks.pop();
    if (sink) this.afterParagraph.push(...sink.paragraphs.map((text): Block => ({ type: 'paragraph', text })));
  }

  /** The text boxes' paragraphs and the charts read since the last body paragraph ended. */
  private flushBoxes(): void {
    if (!this.afterParagraph.length || this.tableLevel() > 0) return;
    this.flushList();
    this.blocks.push(...this.afterParagraph.splice(0));
  }

  /** Ends the note being read: its paragraphs become the note's blocks. */
  private closeNote(): void {
    this.paragraphBreak();
    const sink = this.sinks.pop();
    if (!sink?.note) return;
    const paragraphs = sink.paragraphs;
    if (sink.lead !== undefined) {
      const first = paragraphs[0] ?? [];
      paragraphs[0] = [{ type: 'text', text: sink.lead }, ...first];
    }
    sink.note.blocks = paragraphs.map((text) => ({ type: 'paragraph', text }));
  }

  private symbol(next: string): void {
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
        // Cocoa RTF ends its paragraphs with a backslash before the line end.
        if (this.st.dest === 'text') this.paragraphBreak();
        break;
      default:
        break;
    }
  }

  private word(word: string, param: number | undefined): void {
    const st = this.st;
    if (st.starredFrom !== undefined) {
      const outer = st.starredFrom;
      st.starredFrom = undefined;
      if (!STARRED_READ.has(word)) return;
      st.dest = outer;
    }
    if (st.dest === 'skip') return;
    if (SKIP.has(word)) {
      st.dest = 'skip';
      return;
    }
    if (this.tableDefinitionWord(word, param)) return;
    switch (st.dest) {
      case 'fonttbl':
        this.fontWord(word, param);
        return;
      case 'stylesheet':
        this.styleWord(word, param);
        return;
      case 'listtable':
        this.listTables.listWord(word, param);
        return;
      case 'listoverridetable':
        this.listTables.overrideWord(word, param);
        return;
      case 'pn':
        if (st.pn) pnWord(st.pn, word, param);
        return;
      case 'tableprops':
        return;
      default:
        break;
    }
    if (this.destinationWord(word)) return;
    if (st.dest === 'meta' && META_FIELDS.has(word)) {
      st.metaField = word;
      return;
    }
    switch (word) {
      case 'uc':
        st.uc = Math.max(0, param ?? 1);
        return;
      case 'u': {
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        // Word writes a Symbol-font character as its code in the private use area (\u61603 for ≥).
        const symbol = st.symbolFont && code >= 0xf020 ? symbolFontChar(code, st.symbolFont) : undefined;
        // A Wingdings picture without a character (a hand, a clock) stays out, as in DOCX.
        const picture = st.symbolFont === 'Wingdings' && code >= 0xf020 && code <= 0xf0ff;
        this.char(symbol ?? (picture ? '' : String.fromCharCode(code)));
        this.skipChars = st.uc;
        return;
      }
      case 'f':
        st.codepage = (param !== undefined && this.fontCodepage.get(param)) || this.docCodepage;
        st.mono = param !== undefined && MONOSPACE.test(this.fontNames.get(param) ?? '');
        st.symbolFont = param !== undefined ? symbolFont(this.fontNames.get(param)) : undefined;
        return;
      default:
        break;
    }
    // A marker may be a symbol word too ({\\listtext\\tab \\bullet\\tab}, as pandoc writes).
    if (st.dest === 'listtext' && word !== 'tab' && SYMBOL_WORDS[word]) this.char(SYMBOL_WORDS[word]);
    if (st.dest !== 'text') return;
    if (word === 'tab') {
      this.tab();
      return;
    }
    const symbol = SYMBOL_WORDS[word];
    if (symbol) {
      this.char(symbol);
      return;
    }
    this.textWord(word, param);
  }

  /** Words that open a destination or a structure (fields, notes, pictures, shapes); true when handled. */
  private destinationWord(word: string): boolean {
    const st = this.st;
    const table = TABLE_DESTINATIONS.get(word);
    if (table) {
      st.dest = table;
      return true;
    }
    const inText = st.dest === 'text';
    switch (word) {
      case 'pn':
        st.dest = 'pn';
        st.pn = { format: 'decimal', start: 1 };
        st.closes = 'pn';
        return true;
      case 'field':
        st.field = { instr: '', outer: st.dest };
        return true;
      case 'fldinst':
        st.dest = st.field ? 'fldinst' : 'skip';
        return true;
      case 'fldrslt':
        st.dest = st.field?.outer ?? st.dest;
        if (st.dest === 'text' && st.field && hyperlinkTarget(st.field.instr)) {
          this.flushRun();
          st.closes = 'link';
          st.linkStart = this.sink.nodes.length;
        }
        return true;
      case 'listtext':
      case 'pntext':
        if (inText) {
          st.dest = 'listtext';
          this.marker = '';
        }
        return true;
      case 'footnote':
        if (inText) this.openNote('footnote');
        else st.dest = 'skip';
        return true;
      case 'annotation':
        if (inText) this.openNote('comment');
        else st.dest = 'skip';
        return true;
      case 'atnid':
      case 'atnauthor':
        st.dest = 'annotationInfo';
        st.annotationField = word === 'atnid' ? 'id' : 'author';
        this.annotation[st.annotationField] = '';
        return true;
      case 'pict':
        st.drawing = { props: {}, inText: st.dest === 'text' || !!st.drawing, shape: st.drawing };
        if (st.drawing.shape) st.drawing.inText = st.drawing.shape.inText;
        st.dest = 'picture';
        st.closes = 'picture';
        return true;
      case 'NeXTGraphic':
        // A TextEdit attachment: the picture's file name, then the attachment character after the group.
        st.drawing = { props: {}, inText, attachment: true };
        st.dest = 'picture';
        st.closes = 'picture';
        return true;
      case 'shp':
        st.drawing = { props: {}, inText };
        st.dest = 'shape';
        st.closes = 'shape';
        return true;
      case 'sp':
        if (st.drawing) {
          st.property = { name: '', value: '' };
          st.closes = 'property';
        }
        return true;
      case 'sn':
        if (st.property) st.dest = 'propertyName';
        return true;
      case 'sv':
        if (st.property) st.dest = 'propertyValue';
        return true;
      case 'shptxt':
        // A text box: its paragraphs follow the body paragraph it is anchored in (as the DOCX and DOC
        // readers place them); in a table or a note they are read where the shape stands.
        st.dest = st.drawing?.inText ? 'text' : 'skip';
        st.restorePp = this.pp;
        if (st.drawing?.inText && !this.sinks.length && this.tableLevel() === 0) {
          this.flushRun();
          this.sinks.push({ ...newSink(), box: true });
          st.closes = 'textbox';
          this.pp = newParaProps();
        }
        return true;
      case 'object':
        st.objectOuter = st.dest;
        st.dest = 'object';
        this.objectHex = '';
        return true;
      case 'objdata':
        if (st.dest === 'object') st.dest = 'objdata';
        return true;
      case 'result': {
        if (st.dest !== 'object') return true;
        // A chart or worksheet we read stands for itself: its result (a picture of it) is left out.
        const blocks = st.objectOuter === 'text' ? objectDataBlocks(this.objectHex) : [];
        this.objectHex = '';
        if (blocks.length) this.afterParagraph.push(...blocks);
        st.dest = blocks.length ? 'skip' : (st.objectOuter ?? 'skip');
        return true;
      }
      case 'chftn':
      case 'chatn':
      case 'shppict':
      case 'shpinst':
      case 'picprop':
        return true;
      default:
        return false;
    }
  }

  private fontWord(word: string, param: number | undefined): void {
    const st = this.st;
    if (word === 'f' && param !== undefined) st.fontNumber = param;
    if (param === undefined || st.fontNumber === undefined) return;
    const cp = word === 'fcharset' ? fontCharsetCodepage(param) : word === 'cpg' ? codepageName(param) : undefined;
    if (cp) this.fontCodepage.set(st.fontNumber, cp);
  }

  private styleWord(word: string, param: number | undefined): void {
    const style = this.st.style;
    if (!style) return;
    switch (word) {
      case 's':
        style.number = param ?? 0;
        break;
      case 'cs':
        style.kind = 'character';
        style.number = param ?? 0;
        break;
      case 'ds':
      case 'ts':
        style.kind = 'other';
        break;
      case 'sbasedon':
        style.basedOn = param;
        break;
      case 'outlinelevel':
        style.outline = param;
        break;
      case 'ls':
        style.ls = param;
        break;
      case 'ilvl':
        style.level = param;
        break;
      case 'u':
        this.char(String.fromCharCode((param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0)));
        this.skipChars = this.st.uc;
        break;
      default:
        if (style.kind === 'character') runFormatting(style.format, word, param);
        break;
    }
  }

  /** Row and cell definitions (\trowd, \cellx, merges), for the table at the level they describe. */
  private tableDefinitionWord(word: string, param: number | undefined): boolean {
    if (word !== 'trowd' && word !== 'cellx' && word !== 'clmrg' && word !== 'clvmrg' && word !== 'nestrow') {
      return false;
    }
    if (this.st.dest !== 'text' && this.st.dest !== 'tableprops') return true;
    if (this.sinks.length) return true;
    const nested = Math.max(2, this.tableLevel());
    if (word === 'nestrow') this.endRow(nested);
    else if (word === 'trowd') this.tables.defineRow(this.st.dest === 'tableprops' ? nested : 1);
    else this.tables.cellProperty(this.st.dest === 'tableprops' ? nested : 1, word, param);
    return true;
  }

  private textWord(word: string, param: number | undefined): void {
    const st = this.st;
    switch (word) {
      case 'par':
      case 'sect':
        this.paragraphBreak();
        break;
      case 'page':
        this.paragraphBreak();
        if (!this.sinks.length) this.pageBreak();
        break;
      case 'line':
        if (st.hidden) break;
        this.flushRun();
        this.sink.nodes.push({ type: 'break' });
        if (!this.sinks.length) this.paragraphFonts.typed += '\n';
        break;
      case 'pard':
        this.pp = newParaProps();
        break;
      case 'intbl':
        this.pp.inTable = true;
        break;
      case 'itap':
        this.pp.itap = Math.max(0, Math.min(MAX_TABLE_DEPTH, param ?? 1));
        break;
      case 'outlinelevel':
        this.pp.outline = param ?? -1;
        break;
      case 's':
        this.pp.style = param ?? 0;
        break;
      case 'ls':
        this.pp.ls = param ?? 0;
        break;
      case 'ilvl':
        this.pp.level = param ?? 0;
        break;
      case 'li':
        this.pp.indent = param ?? 0;
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
      case 'caps':
        st.caps = param !== 0;
        break;
      case 'cs':
        // Word repeats a character style's formatting after \\csN; other writers may not.
        Object.assign(st, this.charStyles.get(param ?? 0) ?? {});
        break;
      case 'v':
      case 'deleted':
        // Hidden text and tracked deletions are not shown (DOCX leaves w:del out too).
        this.flushRun();
        st.hidden = param !== 0;
        break;
      case 'plain':
        // \plain resets the character formatting, the font back to the default one.
        st.bold = st.italic = st.strike = st.hidden = st.caps = false;
        st.position = st.code = undefined;
        st.codepage = this.fontCodepage.get(this.defaultFont) ?? this.docCodepage;
        st.mono = MONOSPACE.test(this.fontNames.get(this.defaultFont) ?? '');
        st.symbolFont = symbolFont(this.fontNames.get(this.defaultFont));
        break;
      case 'cell':
        this.endCell(1);
        break;
      case 'nestcell':
        this.endCell(Math.max(2, this.tableLevel()));
        break;
      case 'row':
        this.endRow(1);
        break;
      default:
        break;
    }
  }

  /** A tab: a space, or the end of a list marker typed at the start of a paragraph without \\listtext. */
  private tab(): void {
    const sink = this.sink;
    const typed =
      this.st.dest === 'text' &&
      !this.st.hidden &&
      !this.sinks.length &&
      this.marker === undefined &&
      !sink.nodes.length &&
      TYPED_MARKER.test(sink.run.trim());
    if (!typed) {
      this.char(' ');
      return;
    }
    this.marker = sink.run.trim();
    sink.run = '';
  }

  private char(ch: string): void {
    const st = this.st;
    if (this.bytes.length) this.flushBytes();
    switch (st.dest) {
      case 'text': {
        if (st.hidden) return;
        if (this.afterAttachment) {
          this.afterAttachment = false;
          if (ATTACHMENT_CHARS.has(ch)) return;
        }
        const sink = this.sink;
        const style = sink.runStyle;
        const changed =
          style.bold !== st.bold ||
          style.italic !== st.italic ||
          style.strike !== st.strike ||
          style.position !== st.position ||
          style.code !== st.code;
        if (sink.run && changed) this.flushRun();
        if (!sink.run)
          sink.runStyle = { bold: st.bold, italic: st.italic, strike: st.strike, position: st.position, code: st.code };
        sink.run += st.caps ? ch.toUpperCase() : ch;
        if (ch.trim()) this.paragraphFonts[st.mono ? 'mono' : 'prose'] = true;
        if (!this.sinks.length) this.paragraphFonts.typed += st.caps ? ch.toUpperCase() : ch;
        return;
      }
      case 'fonttbl':
        if (st.fontNumber !== undefined)
          this.fontNames.set(st.fontNumber, (this.fontNames.get(st.fontNumber) ?? '') + ch);
        return;
      case 'fldinst':
        if (st.field) st.field.instr += ch;
        return;
      case 'objdata':
        if (this.objectHex.length < MAX_OBJECT_HEX) this.objectHex += ch;
        return;
      case 'listtext':
        this.marker = (this.marker ?? '') + ch;
        return;
      case 'meta':
        if (st.metaField) this.meta[st.metaField] = (this.meta[st.metaField] ?? '') + ch;
        return;
      case 'stylesheet':
        if (st.style) st.style.name += ch;
        return;
      case 'annotationInfo':
        if (st.annotationField) this.annotation[st.annotationField] += ch;
        return;
      case 'propertyName':
        if (st.property && st.property.name.length < MAX_PROPERTY_CHARS) st.property.name += ch;
        return;
      case 'propertyValue':
        if (st.property && st.property.value.length < MAX_PROPERTY_CHARS) st.property.value += ch;
        return;
      default:
        return;
    }
  }

  private flushBytes(): void {
    const bytes = this.bytes;
    this.bytes = [];
    // The Symbol font's bytes are its Greek letters and signs, whatever the code page says.
    if (this.st.symbolFont) {
      const font = this.st.symbolFont;
      for (const byte of bytes)
        this.char(symbolFontChar(byte, font) ?? (font === 'Symbol' ? String.fromCharCode(byte) : ''));
      return;
    }
    const text = iconv.decode(Buffer.from(bytes), this.st.codepage);
    for (const ch of text) this.char(ch);
  }

  private flushRun(): void {
    if (this.bytes.length) this.flushBytes();
    const sink = this.sink;
    if (!sink.run) return;
    // Inline code keeps its spaces as typed.
    const text: Inline[] = [
      sink.runStyle.code && sink.run.trim()
        ? { type: 'code', text: sink.run.replace(/\t/g, ' ') }
        : { type: 'text', text: sink.run.replace(/[ \t]+/g, ' ') },
    ];
    sink.nodes.push(...(sink.run.trim() ? styled(text, sink.runStyle) : text));
    sink.run = '';
  }

  /** The table level of the paragraph being read (0 outside tables). */
  private tableLevel(): number {
    const { inTable, itap } = this.pp;
    return inTable ? Math.max(1, itap ?? 1) : (itap ?? 0);
  }

  /**
   * A hard page break (`\page`) in the body: blocks pushed from here on are on the next page (E1),
   * but a list still being read started before it and stays on its page.
   */
  private pageBreak(): void {
    this.pageMarks.push(this.blocks.length + (this.items.length ? 1 : 0));
  }

  private paragraphBreak(): void {
    this.flushRun();
    if (this.sinks.length) {
      const sink = this.sink;
      const para = tidy(sink.nodes.splice(0));
      if (para.length) sink.paragraphs.push(para);
      this.marker = undefined;
      this.paragraphFonts = { mono: false, prose: false, typed: '' };
      return;
    }
    this.endParagraph();
    this.flushBoxes();
  }

  private endParagraph(): void {
    this.flushRun();
    if (this.sinks.length) return;
    const level = this.tableLevel();
    if (level > 0) {
      this.cellParagraph(level);
      return;
    }
    const text = tidy(this.body.nodes.splice(0));
    const marker = this.marker?.trim();
    this.marker = undefined;
    const fonts = this.paragraphFonts;
    this.paragraphFonts = { mono: false, prose: false, typed: '' };
    // A paragraph outside the tables ends them, an empty one too (it is what separates two tables).
    this.flushTables();
    if (!text.length) return;
    const chain = this.styleChain(this.pp.style);
    const headingLevel = this.headingLevel(chain);
    const ls = this.pp.ls ?? chain.find((s) => s.ls !== undefined)?.ls;
    const inList = ls !== undefined || this.pp.pn !== undefined || marker !== undefined;
    const wasCode = this.lastWasCode;
    const monoLine = this.lastMonoLine;
    this.lastWasCode = false;
    this.lastMonoLine = undefined;
    // As typed: the runs' text has its spaces collapsed, a code line's indentation with them.
    const typed = fonts.typed.replace(/\s+$/, '') || inlineText(text, '\n');
    // A short monospaced line beside code ("done", "fi") is a line of it, as in the DOCX reader.
    const joins = !headingLevel && !inList && fonts.mono && !fonts.prose && joinsCodeBeside(typed);
    if (!headingLevel && !inList && (this.isCode(chain, fonts, text) || (joins && wasCode))) {
      this.flushList();
      const last = this.blocks[this.blocks.length - 1];
      // Consecutive code paragraphs are one block, as in the DOCX reader.
      if (last?.type === 'code' && wasCode) last.text += `\n${typed}`;
      else if (monoLine && last === monoLine.block)
        this.blocks[this.blocks.length - 1] = { type: 'code', text: `${monoLine.text}\n${typed}` };
      else this.blocks.push({ type: 'code', text: typed });
      this.lastWasCode = true;
      return;
    }
    if (headingLevel) {
      this.flushList();
      const label: Inline[] = marker && isLabel(marker) ? [{ type: 'text', text: `${marker} ` }] : [];
      this.blocks.push({ type: 'heading', level: headingLevel, text: [...label, ...withoutWholeEmphasis(text)] });
    } else if (inList) {
      const listed = ls !== undefined || this.pp.pn !== undefined;
      // Without list markup, nesting shows only as indentation.
      const ilvl = listed
        ? (this.pp.level ?? chain.find((s) => s.level !== undefined)?.level ?? 0)
        : this.indentLevel(this.pp.indent ?? 0);
      this.listParagraph(text, marker, ls, Math.max(0, Math.min(8, ilvl)));
    } else if (chain.some((style) => QUOTE_STYLE.test(style.name))) {
      this.flushList();
      this.blocks.push({ type: 'quote', blocks: [{ type: 'paragraph', text }] });
    } else {
      this.flushList();
      const block: Block = { type: 'paragraph', text };
      this.blocks.push(block);
      if (joins) this.lastMonoLine = { block, text: typed };
      if (chain.some((style) => TERM_STYLE.test(style.name))) this.definitionRoles.set(text, 'term');
      else if (chain.some((style) => DEFINITION_STYLE.test(style.name))) this.definitionRoles.set(text, 'definition');
    }
  }

  /** A code paragraph, as the DOCX reader tells one: a code style, or all monospaced and reading like code. */
  private isCode(chain: StyleDef[], fonts: { mono: boolean; prose: boolean }, text: Inline[]): boolean {
    if (chain.some((style) => CODE_STYLE.test(style.name))) return true;
    return fonts.mono && !fonts.prose && CODE_CHARS.test(inlineText(text, '\n'));
  }

  /**
   * A list paragraph: an item typed by its marker, else by its list's level (\listtable or \pn); a
   * marker numbering more than its level ("2.1.") is kept as text. A paragraph without a marker in a
   * list whose items have one continues the item before it.
   */
  private listParagraph(text: Inline[], marker: string | undefined, ls: number | undefined, level: number): void {
    const kind = this.pp.pn ?? (ls !== undefined ? this.listTables.kind(ls, level) : undefined);
    const list = this.pp.pn ? 'pn' : ls !== undefined ? `ls${ls}` : undefined;
    const last = this.items[this.items.length - 1];
    if (marker === undefined && !this.pp.pn && last?.marked && last.list === list && last.level === level) {
      (last.more ??= []).push({ type: 'paragraph', text });
      return;
    }
    if (kind?.format === 'none' && !marker) {
      this.flushList();
      this.blocks.push({ type: 'paragraph', text });
      return;
    }
    let ordered: boolean;
    let value: number | undefined;
    let label: Inline[] = [];
    if (marker) {
      ordered = isOneLevelNumber(marker);
      value = ordered ? markerValue(marker, kind?.format) : undefined;
      if (!ordered && isLabel(marker) && kind?.format !== 'bullet') {
        label = [{ type: 'text', text: `${marker} ` }];
      }
    } else {
      ordered = kind !== undefined && kind.format !== 'bullet';
      value = kind?.start;
    }
    this.items.push({ level, ordered, value, text: [...label, ...text], list, marked: marker !== undefined });
  }

  /** A paragraph inside a table cell; a list paragraph keeps its marker there, as in DOCX cells. */
  private cellParagraph(level: number): void {
    this.paragraphFonts = { mono: false, prose: false, typed: '' };
    const text = tidy(this.body.nodes.splice(0));
    const marker = this.marker?.trim();
    this.marker = undefined;
    if (!text.length) return;
    if (!this.tables.open) this.flushList();
    const label = marker === undefined ? '' : isLabel(marker) ? marker : '-';
    this.tables.paragraph(level, label ? [{ type: 'text', text: `${label} ` }, ...text] : text);
  }

  /** \cell or \nestcell: the paragraph being read joins its cell (at its own level), then the cell ends. */
  private endCell(level: number): void {
    this.flushRun();
    if (this.sinks.length) {
      this.char(' ');
      return;
    }
    if (!this.tables.open) this.flushList();
    this.cellParagraph(Math.max(level, this.tableLevel()));
    this.tables.endCell(level);
  }

  private endRow(level: number): void {
    this.flushRun();
    if (this.sinks.length) return;
    if (!isBlankInline(this.body.nodes)) this.cellParagraph(Math.max(level, this.tableLevel()));
    this.tables.endRow(level);
  }

  private flushTables(): void {
    if (!this.tables.open) return;
    this.flushList();
    this.blocks.push(...this.tables.closeAll());
  }

  private flushList(): void {
    if (this.items.length) this.blocks.push(...nestListItems(this.items));
    this.items = [];
    this.indents = [];
  }

  /** The nesting level of a list paragraph without list markup: how many smaller indents are open before it. */
  private indentLevel(indent: number): number {
    const open = this.indents;
    while (open.length && open[open.length - 1]! > indent) open.pop();
    if (!open.length || open[open.length - 1]! < indent) open.push(indent);
    return open.length - 1;
  }

  /** A style and the styles it is based on, nearest first. */
  private styleChain(number: number): StyleDef[] {
    const chain: StyleDef[] = [];
    const seen = new Set<number>();
    for (let n: number | undefined = number; n !== undefined && !seen.has(n) && chain.length < MAX_STYLE_CHAIN;) {
      seen.add(n);
      const style = this.styles.get(n);
      if (!style) break;
      chain.push(style);
      n = style.basedOn;
    }
    return chain;
  }

  /** Title 1, Subtitle 2, "heading N" N, localised names too (as in the DOCX reader), else the outline level, direct or the style's. */
  private headingLevel(chain: StyleDef[]): number {
    for (const style of chain) {
      const named = headingLevelOfStyleName(style.name);
      if (named) return named;
    }
    const outline = this.pp.outline >= 0 ? this.pp.outline : chain.find((s) => s.outline !== undefined)?.outline;
    return outline !== undefined && outline >= 0 && outline < 9 ? outline + 1 : 0;
  }
}

function newSink(): Sink {
  return { nodes: [], run: '', runStyle: { bold: false, italic: false, strike: false }, paragraphs: [] };
}

/** A paragraph's nodes with white space collapsed, or none when nothing in it would show. */
function tidy(nodes: Inline[]): Inline[] {
  return isBlankInline(nodes) ? [] : collapseSpaces(nodes);
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
