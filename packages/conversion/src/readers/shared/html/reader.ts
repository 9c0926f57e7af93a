import type { Block, Inline, ListItem, Note } from '../../../document/model';
import { inlineText, isBlankInline } from '../../../document/predicates';
import { BLOCK_TAGS, descendantsOf, parseHtml, textOf, type HtmlElement, type HtmlNode } from './dom';
import { isFormatting } from '../../../document/predicates';
import { withoutWholeEmphasis } from '../../../document/builders';
import { declaredFont, readClassFonts, type ClassFont } from './class-fonts';
import { mathTex } from './mathml';
import { withDrawnLists } from '../drawn-lists';
import { withSplitListsJoined } from './split-lists';

/** Elements nested deeper than this are read as their plain text (no stack overflow on hostile nesting). */
export const MAX_HTML_DEPTH = 200;
/** Cells kept per table when expanding spans, so a hostile rowspan cannot blow up memory. */
const MAX_GRID_CELLS = 200_000;
const MAX_SPAN = 100;

/** Never content: scripts, styles, embedded objects and form controls. */
const SKIPPED_TAGS = new Set([
  'head',
  'title',
  'meta',
  'link',
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'button',
  'select',
  'textarea',
  'input',
]);
/** Class or id words that mark navigation and page chrome rather than content. */
const CHROME_WORDS = new Set([
  'nav',
  'navbar',
  'navbox',
  'navigation',
  'menu',
  'sidebar',
  'breadcrumb',
  'breadcrumbs',
  'toc',
  'cookie',
  'cookies',
  'banner',
  'skip',
  'jump',
  'editsection',
  'catlinks',
  'dropdown',
  'languages',
  'share',
  'social',
  'noprint',
  // Advertising, teasers for other pages and sign-up boxes beside an article.
  'ad',
  'ads',
  'advert',
  'advertisement',
  'sponsored',
  'related',
  'recommendations',
  'recommended',
  'upsell',
  'ticker',
  'masthead',
  'widget',
  'widgets',
  'signup',
  'subscribe',
  'pagination',
  'pager',
]);
/**
 * Page builders that name every block of a page after the widget that drew it, article text
 * included (Elementor's `elementor-widget-text-editor`, `elementor-widget-container`): in their
 * names `widget` is the block's kind, not a sidebar's.
 */
const BLOCK_WIDGET_PREFIXES = new Set(['elementor']);
/** Class or id names of chrome written as several words (`most-read`, `action_bar`), compared without their separators. */
const CHROME_COMPOUNDS = new Set(['mostread', 'mostpopular', 'mostviewed', 'actionbar', 'jumpbox']);
/** ARIA roles of navigation and search, chrome wherever they are. */
const CHROME_ROLES = new Set(['navigation', 'search']);
/** ARIA landmark roles of the page's own header and footer. */
const PAGE_ROLES = new Set(['banner', 'contentinfo']);
/**
 * Code languages named in class attributes: `language-py`, `lang-js`, `highlight-source-rust`,
 * `brush: sql`, and pandoc's `sourceCode python` (with `numberSource` when lines are numbered).
 */
const LANGUAGE_CLASS = [
  /(?:^|\s)sourceCode\s+(?:numberSource\s+)?([\w+#-]+)/,
  /\blang(?:uage)?-([\w+#-]+)/i,
  /\bhighlight-source-([\w+#-]+)/i,
  /\bhighlight-([\w+#-]+)/i,
  /\bbrush:\s*([\w+#-]+)/i,
];

/** Note numbers handed out so far: shared by the pages of one document (EPUB chapters) so their notes never clash. */
export interface NoteNumbering {
  next: number;
}

export interface HtmlReadOptions {
  /**
   * Links to a relative address keep only their text: in an e-book they point at another file
   * of the book, which the Markdown doesn't have.
   */
  dropRelativeLinks?: boolean;
  /**
   * A page of an e-book: class and id names never mark page chrome. A book has no site menu or
   * cookie banner; its ids are anchors named after its own sections (`sec-nav` for a chapter on
   * navigation) and its classes are styles (a textbook's `sidebar` box). Nor is a `<nav>` or a
   * navigation role: the book's navigation document is left out by the e-book reader, so a `<nav>`
   * in a chapter is the chapter's own contents list, which the reader sees. `aria-hidden` still is.
   */
  bookPage?: boolean;
  /**
   * Set by `readHtml` when the chrome of the content read holds nearly all its prose: that content's
   * prose. A box named as chrome holding most of it is then its article (see `keepsLittleProse`).
   */
  proseHolders?: number;
  /** Notes that live in another page of the same book (an e-book's endnotes file). */
  bookNotes?: BookNotes;
  /** The type of the document's classes (an e-book's stylesheets); else read from the page's own <style>. */
  classFonts?: ReadonlyMap<string, ClassFont>;
  /** The heading level of a paragraph that only its type marks as a heading (an e-book's styled classes). */
  styledHeading?: (el: HtmlElement) => number | undefined;
  /**
   * The page has MathJax or KaTeX typeset the TeX in its text (see `texTypesetting`): text between
   * their delimiters is a formula; `dollars` when its configuration adds `$…$` for inline math.
   */
  texInText?: { dollars: boolean };
}

/**
 * An e-book's notes across its pages: a note mark in one chapter (`<a epub:type="noteref"
 * href="endnotes.xhtml#note-6">`) and the note in another page share one label.
 */
export interface BookNotes {
  /** The label of the note in another page that this address points to, if it is one. */
  refLabel(href: string): string | undefined;
  /** Whether this page's element with this id is a note that a mark in another page points to. */
  isOwn(id: string): boolean;
  /** That note's label, the one its marks carry. */
  ownLabel(id: string): string;
}

/** An HTML document or fragment as document blocks: the main content, page chrome left out. */
export function htmlToBlocks(
  html: string,
  numbering: NoteNumbering = { next: 1 },
  options: HtmlReadOptions = {},
): Block[] {
  return readHtml(parseHtml(html), numbering, options);
}

export function readHtml(
  root: HtmlElement,
  numbering: NoteNumbering = { next: 1 },
  options: HtmlReadOptions = {},
): Block[] {
  const content = mainContent(root);
  const notes = noteElements(root, options.bookNotes);
  const first = numbering.next;
  options = options.classFonts ? options : { ...options, classFonts: headClassFonts(root) };
  const texInText = options.texInText ?? texTypesetting(root);
  if (texInText) options = { ...options, texInText };
  if (!options.bookPage) {
    const prose = keepsLittleProse(content);
    if (prose) options = { ...options, proseHolders: prose };
  }
  const blocks = new HtmlReader('all', notes, numbering, options).document(content);
  if (blocks.length || !textOf(root, (el) => SKIPPED_TAGS.has(el.tag)).trim()) return blocks;
  // A page that is all chrome (a bare header or menu) keeps what is inside its outermost chrome,
  // still without the chrome nested there (the logo, a sub-menu); failing that, everything it has.
  numbering.next = first;
  const outer = new HtmlReader(
    outermostChrome(content, options.bookPage === true, options.proseHolders),
    notes,
    numbering,
    options,
  ).document(content);
  if (outer.length) return outer;
  numbering.next = first;
  return new HtmlReader('none', notes, numbering, options).document(content);
}

/** `epub:type` words and ARIA roles (DPUB-ARIA) of a footnote or endnote, and of a list of them. */
const NOTE_TYPE = /(?:^|\s)(?:footnote|endnote|rearnote)(?:\s|$)/i;
const NOTE_ROLES = new Set(['doc-footnote', 'doc-endnote']);
const NOTES_TYPE = /(?:^|\s)(?:footnotes|endnotes|rearnotes)(?:\s|$)/i;
/**
 * A notes list marked only by its class (pandoc's EPUB 2 and HTML 4 output, kramdown, Hugo,
 * markdown-it-footnote: `<div class="footnotes"><ol><li id="fn1">`); its items are notes only when a
 * link in the page points to them, like the items of a list marked by `epub:type`.
 */
const NOTES_CLASS = /(?:^|\s)(?:footnotes|endnotes)(?:\s|$)/i;

/** Whether an element holds a page's notes (pandoc's `<section class="footnotes" role="doc-endnotes">`, `epub:type="footnotes"`). */
function isNotesContainer(el: HtmlElement): boolean {
  const type = el.attrs['epub:type'];
  return (
    el.attrs.role === 'doc-endnotes' ||
    (type !== undefined && NOTES_TYPE.test(type)) ||
    (el.attrs.class !== undefined && NOTES_CLASS.test(el.attrs.class))
  );
}

/**
 * The rule a page draws above its notes (pandoc's `<hr />` inside the notes section,
 * markdown-it's `<hr class="footnotes-sep">` before it): the notes are written at the end, with
 * no rule of their own, so it would be left standing alone in the text.
 */
function isNotesSeparator(hr: HtmlElement): boolean {
  if (/(?:^|\s)footnotes?-sep(?:\s|$)/.test(hr.attrs.class ?? '')) return true;
  if (!hr.parent) return false;
  if (isNotesContainer(hr.parent)) return true;
  const next = nextElements(hr.parent).get(hr);
  return next !== undefined && isNotesContainer(next);
}

/** Each child element's next element sibling, worked out once per parent (many <hr> siblings stay linear). */
const nextElementMaps = new WeakMap<HtmlElement, Map<HtmlElement, HtmlElement>>();
function nextElements(parent: HtmlElement): Map<HtmlElement, HtmlElement> {
  let map = nextElementMaps.get(parent);
  if (!map) {
    map = new Map();
    let previous: HtmlElement | undefined;
    for (const c of parent.children) {
      if (typeof c === 'string') continue;
      if (previous) map.set(previous, c);
      previous = c;
    }
    nextElementMaps.set(parent, map);
  }
  return map;
}

/**
 * A table that lays out a page rather than holding data (Hacker News, old sites, mail): nothing
 * in it is a header (no <th>, no caption) and it has text in one column only, beside spacer and
 * icon columns (a nested table alone is no sign: data tables nest too). A table whose header cells say it is data
 * keeps a nested table as its cell's text.
 */
function isLayoutGrid(rows: HtmlElement[][], captioned: boolean): boolean {
  if (captioned || rows.some((cells) => cells.some((cell) => cell.tag === 'th'))) return false;
  return filledColumns(rows) <= 1;
}

/** How many columns have text in some row (a layout grid's spacer and icon columns have none). */
function filledColumns(rows: HtmlElement[][]): number {
  const filled = new Set<number>();
  for (const cells of rows) {
    let column = 0;
    for (const cell of cells) {
      if (!filled.has(column) && hasText(cell)) filled.add(column);
      // Two are enough to call it data: no need to look at every cell of a large table.
      if (filled.size > 1) return filled.size;
      column += span(cell.attrs.colspan);
    }
  }
  return filled.size;
}

/** Whether an element holds any text, looked for only until some is found. */
function hasText(el: HtmlElement): boolean {
  const stack: HtmlNode[] = [...el.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') {
      if (n.trim()) return true;
    } else for (const c of n.children) stack.push(c);
  }
  return false;
}

/** Docutils' HTML 4 footnote: `<table class="docutils footnote" id="footnote-1">`, its label in the first cell. */
const NOTE_TABLE_CLASS = /(?:^|\s)footnote(?:\s|$)/;

/** What a note holds: a docutils footnote table's text cells (not its label cell); any other note's content. */
function noteBody(note: HtmlElement): HtmlNode[] {
  if (note.tag !== 'table') return note.children;
  return [...descendantsOf(note)]
    .filter((el) => el.tag === 'td' && !/(?:^|\s)label(?:\s|$)/.test(el.attrs.class ?? ''))
    .flatMap((td) => td.children);
}

/**
 * Footnotes and endnotes marked as such (EPUB `epub:type`, DPUB-ARIA roles, the items of a marked
 * notes list) that a link in the same page (or, in a book, in another page) points to, by id.
 */
function noteElements(root: HtmlElement, book?: BookNotes): Map<string, HtmlElement> {
  const { candidates, targets } = noteCandidates(root);
  for (const id of candidates.keys()) if (!targets.has(id) && !book?.isOwn(id)) candidates.delete(id);
  return candidates;
}

/** The ids of the elements of a page that are marked as footnotes or endnotes, pointed at or not. */
export function noteIds(html: string): Set<string> {
  return new Set(noteCandidates(parseHtml(html)).candidates.keys());
}

/** Marked notes by id, and the ids that links within the page point to. */
function noteCandidates(root: HtmlElement): { candidates: Map<string, HtmlElement>; targets: Set<string> } {
  const candidates = new Map<string, HtmlElement>();
  const targets = new Set<string>();
  const stack: HtmlElement[] = [root];
  const inNotesList: boolean[] = [false];
  while (stack.length) {
    const el = stack.pop()!;
    const listed = inNotesList.pop()!;
    const { id, href, role } = el.attrs;
    const type = el.attrs['epub:type'];
    if (el.tag === 'a' && href?.startsWith('#')) targets.add(href.slice(1));
    const note =
      id !== undefined &&
      ((type !== undefined && NOTE_TYPE.test(type)) ||
        NOTE_ROLES.has(role ?? '') ||
        (listed && el.tag === 'li') ||
        (el.tag === 'table' && NOTE_TABLE_CLASS.test(el.attrs.class ?? '')));
    if (note) candidates.set(id, el);
    const list =
      !note &&
      (listed ||
        role === 'doc-endnotes' ||
        (type !== undefined && NOTES_TYPE.test(type)) ||
        (el.attrs.class !== undefined && NOTES_CLASS.test(el.attrs.class)));
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (typeof child === 'string') continue;
      stack.push(child);
      inNotesList.push(list);
    }
  }
  return { candidates, targets };
}

/**
 * The <main> element; else the outermost articles, unless they are teasers and comments (each short
 * and under a tenth of the page's prose, together under half of it); else the element in the main
 * landmark role; else the whole document. Sites mark teasers for other posts, and WordPress each
 * comment, as articles beside a post that is in none, and put `role="main"` on a wrapper that holds
 * the sidebar too, so an article inside it is closer.
 */
function mainContent(root: HtmlElement): HtmlNode[] {
  const articles: HtmlElement[] = [];
  let landmark: HtmlElement | undefined;
  // One walk; beside each element on the stack, whether an article holds it (articles in articles are part of them).
  const stack: HtmlElement[] = [];
  const inArticle: boolean[] = [];
  const pushChildren = (el: HtmlElement, held: boolean): void => {
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (typeof child === 'string') continue;
      stack.push(child);
      inArticle.push(held);
    }
  };
  pushChildren(root, false);
  while (stack.length) {
    const el = stack.pop()!;
    const held = inArticle.pop()!;
    if (el.tag === 'main') return [el];
    if (el.attrs.role === 'main') landmark ??= el;
    const article = el.tag === 'article';
    if (article && !held) articles.push(el);
    pushChildren(el, held || article);
  }
  let articleProse = 0;
  let largest = 0;
  for (const article of articles) {
    articleProse += article.prose;
    largest = Math.max(largest, article.prose);
  }
  const teasers =
    largest < ARTICLE_MIN_PROSE &&
    largest < TEASER_SHARE * root.prose &&
    articleProse < ARTICLE_PROSE_SHARE * root.prose;
  if (articles.length && !teasers) return articles;
  return landmark ? [landmark] : root.children;
}

/** Share of a page's prose that a teaser card or a comment never holds (a short post of its own does). */
const TEASER_SHARE = 0.1;

/** Chrome elements with no chrome above them (within the content read). */
function outermostChrome(nodes: HtmlNode[], book: boolean, proseHolders = 0): Set<HtmlElement> {
  const found = new Set<HtmlElement>();
  const stack: HtmlNode[] = nodes.slice().reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node === 'string' || SKIPPED_TAGS.has(node.tag)) continue;
    if (isChrome(node, book, proseHolders)) found.add(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return found;
}

/**
 * Navigation and page chrome by tag, ARIA role or class/id words, unless it holds the page's
 * content. In an e-book's page (`book`) only `aria-hidden` and the page landmarks count.
 */
function isChrome(el: HtmlElement, book: boolean, proseHolders = 0): boolean {
  if (el.attrs['aria-hidden'] === 'true') return true;
  if (!book && (el.tag === 'nav' || CHROME_ROLES.has(el.attrs.role ?? ''))) return true;
  // The page's banner and footer landmarks; inside main content these roles are misused (as for
  // <header> and <footer>, which are landmarks only outside <main> and <article>).
  if (PAGE_ROLES.has(el.attrs.role ?? '') && !el.inMain) return true;
  if (!book && isPageHeaderOrFooter(el)) return true;
  if (book || (el.attrs.class === undefined && el.attrs.id === undefined) || isWholeHeading(el)) return false;
  const names = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`.toLowerCase().split(/\s+/);
  const chrome = names.some((name) => {
    if (CHROME_COMPOUNDS.has(name.replace(/[_-]/g, ''))) return true;
    const words = name.split(/[_-]+/);
    const blocks = BLOCK_WIDGET_PREFIXES.has(words[0]!);
    return words.some((w) => CHROME_WORDS.has(w) && !(blocks && (w === 'widget' || w === 'widgets')));
  });
  // A tab strip names the panels beside it: content, whatever its class or id says.
  return (
    chrome &&
    !el.hasContent &&
    el.attrs.role !== 'tablist' &&
    !(proseHolders && el.prose >= ARTICLE_PROSE_SHARE * proseHolders)
  );
}

/**
 * Share of the content's prose above which an element is its article, whatever its class or id
 * names, once the chrome would otherwise take the article with it (see `keepsLittleProse`): themes
 * name the box holding the post after what sits beside it (Vox's `l-sidebar-fixed`, a Drupal panel
 * `two-col-sidebar-right`, `sidebar-and-content-body`, an `<article class="sticky-sidebar-parent">`),
 * after what it carries (Hueman's `entry share`), or wrap a whole blog in a `widget` (Blogger) and
 * every block of a page in one (Elementor's `elementor-widget`). Menus, share bars, cookie notices
 * and teaser lists are links or a few words; they never hold most of the text.
 */
const ARTICLE_PROSE_SHARE = 0.5;

/**
 * What is left of the content once its chrome is out cannot be it when it is under a quarter of
 * its prose and shorter than an article (1,000 characters: a title, a byline and a teaser): the
 * chrome took the article with it. Only then does a named box holding most of the prose count as
 * content, so a page that keeps its article beside a long comment thread under `id="navigation"`,
 * or an article beside a captioned gallery in a widget, still leaves the thread and gallery out.
 */
const KEPT_PROSE_SHARE = 0.25;
const ARTICLE_MIN_PROSE = 1000;

/**
 * The prose of `content` when leaving out its chrome (read by the plain rules) leaves next to none
 * of it; else 0.
 */
function keepsLittleProse(content: HtmlNode[]): number {
  let prose = 0;
  for (const node of content) if (typeof node !== 'string') prose += node.prose;
  let kept = prose;
  for (const chrome of outermostChrome(content, false)) kept -= chrome.prose;
  return kept < ARTICLE_MIN_PROSE && kept < KEPT_PROSE_SHARE * prose ? prose : 0;
}

/**
 * The only thing in a heading: its text, whatever its class says (docutils links each section
 * title back to the contents, `<h1><a class="toc-backref">Introduction</a></h1>`). A part of a
 * heading beside its text (MediaWiki's `[edit]`) can still be chrome.
 */
function isWholeHeading(el: HtmlElement): boolean {
  const parent = el.parent;
  if (!parent || !HEADING_TAGS.has(parent.tag)) return false;
  return parent.children.every((c) => c === el || (typeof c === 'string' ? !c.trim() : false));
}

/** Elements whose <header> and <footer> are their own (HTML's sectioning content and <main>), not the page's. */
const SECTIONING_TAGS = new Set(['article', 'aside', 'main', 'nav', 'section']);

/**
 * The page's own header or footer, where the page has no <main> or <article> to read alone: a
 * <header>/<footer> outside sectioning content (the banner and contentinfo landmarks they stand for)
 * or `id="header"`/`id="footer"` of a page laid out in divs (logo, copyright, "powered by", site
 * links). A section's or article's own header and footer are content, and so is a header that
 * holds a heading (the page's title may be there).
 */
function isPageHeaderOrFooter(el: HtmlElement): boolean {
  const id = el.attrs.id?.toLowerCase();
  const footer = el.tag === 'footer' || id === 'footer';
  if ((!footer && el.tag !== 'header' && id !== 'header') || el.hasContent) return false;
  // A footer holding the page's contentinfo landmark is the page's, in whatever section a theme put it (Read the Docs).
  if (footer && !el.inMain && [...descendantsOf(el)].some((d) => d.attrs.role === 'contentinfo')) return true;
  for (let up = el.parent; up; up = up.parent) if (SECTIONING_TAGS.has(up.tag)) return false;
  if (footer) return true;
  for (const inner of descendantsOf(el)) if (HEADING_TAGS.has(inner.tag)) return false;
  return true;
}

const textNode = (value: string): Inline => ({ type: 'text', text: value });

/**
 * Which chrome is left out: all of it, none, or (for a page that is all chrome) all but the
 * outermost chrome elements given.
 */
type ChromeRule = 'all' | 'none' | Set<HtmlElement>;

/** Appends without spreading (a spread of a long array overflows the call stack). */
function append<T>(target: T[], items: T[]): void {
  for (const item of items) target.push(item);
}

class HtmlReader {
  /** An element left out while one paragraph is read (the marker Word drew for a list item). */
  private hidden: HtmlElement | undefined;
  /** How many notes are being read, one inside another: their links back to the mark go. */
  private inNote = 0;

  /** Note labels by the note's element id (`fn1`, Word's `ftn1`), numbered in the order met. */
  private readonly noteLabels = new Map<string, string>();
  private readonly notes: Note[] = [];

  constructor(
    private readonly chrome: ChromeRule,
    /** The page's footnotes and endnotes by id (see `noteElements`). */
    private readonly noteTargets: Map<string, HtmlElement>,
    private readonly numbering: NoteNumbering,
    private readonly options: HtmlReadOptions,
  ) {}

  /** The page's blocks, then its notes. */
  document(nodes: HtmlNode[]): Block[] {
    const out = withSplitListsJoined(withDrawnLists(this.blocks(nodes, 0)));
    // In the order of their marks in the text (footnotes and endnotes share one numbering).
    const notes = this.notes.filter((n) => n.blocks.length).sort((a, b) => Number(a.id) - Number(b.id));
    if (notes.length) out.push({ type: 'notes', notes });
    return out;
  }

  private noteLabel(key: string): string {
    if (this.options.bookNotes?.isOwn(key)) return this.options.bookNotes.ownLabel(key);
    let label = this.noteLabels.get(key);
    if (!label) {
      label = String(this.numbering.next++);
      this.noteLabels.set(key, label);
    }
    return label;
  }

  /** Word's note list (`mso-element:footnote-list`): each note's blocks kept for the end, its back link left out. */
  private wordNotes(list: HtmlElement, depth: number): void {
    for (const note of list.children) {
      if (typeof note === 'string' || !/mso-element:\s*(foot|end)note\b/i.test(note.attrs.style ?? '')) continue;
      this.takeNote(note, depth);
    }
  }

  private isNote(el: HtmlElement): boolean {
    return el.attrs.id !== undefined && this.noteTargets.get(el.attrs.id) === el;
  }

  /** A note's blocks are kept for the notes block at the end, not read where the note stands. */
  private takeNote(note: HtmlElement, depth: number): void {
    this.inNote++;
    try {
      this.notes.push({ id: this.noteLabel(note.attrs.id ?? ''), blocks: this.blocks(noteBody(note), depth + 1) });
    } finally {
      this.inNote--;
    }
  }

  /** Block context: inline runs gather into paragraphs, block elements become their blocks (appended to `out`). */
  blocks(nodes: HtmlNode[], depth: number, out: Block[] = []): Block[] {
    let run: Inline[] = [];
    // Paragraphs Word saved as list items, gathered until other content shows.
    let word: WordList | undefined;
    // Google Docs' flat lists of one level each, joined into the list they nest in.
    let kix: KixLists | undefined;
    const endWordList = (): void => {
      if (word) out.push(word.list);
      word = undefined;
    };
    const flush = (): void => {
      if (run.length && !isBlankInline(run)) {
        endWordList();
        out.push({ type: 'paragraph', text: tidy(run) });
      }
      run = [];
    };
    for (const node of nodes) {
      if (typeof node === 'string') run.push(...this.text(node));
      else if (node.tag === 'svg' && node.attrs.hidden === undefined && node !== this.hidden) {
        flush();
        out.push(...svgText(node));
      } else if (this.skipped(node)) continue;
      else if (depth >= MAX_HTML_DEPTH) run.push(textNode(` ${textOf(node)} `));
      else if (BLOCK_TAGS.has(node.tag) || node.hasBlock) {
        flush();
        const item = wordListItem(node);
        if (item) {
          if (word && word.id !== item.list) endWordList();
          (word ??= new WordList(item.list)).add(
            item.level,
            item.marker,
            this.wordListText(node, item.markerElement, depth + 1),
          );
          continue;
        }
        const kixClass = node.tag === 'ul' || node.tag === 'ol' ? KIX_LIST.exec(node.attrs.class ?? '') : null;
        if (kixClass) {
          endWordList();
          const made: Block[] = [];
          this.block(node, depth + 1, made);
          const list = made[0];
          const level = Number(kixClass[2]);
          if (made.length !== 1 || list?.type !== 'list') append(out, made);
          else if (kix?.id === kixClass[1] && out[out.length - 1] === kix.root) nestKixList(kix, level, list);
          else {
            out.push(list);
            kix = { id: kixClass[1]!, root: list, open: [{ level, list }] };
          }
          continue;
        }
        const at = out.length;
        this.block(node, depth + 1, out);
        // An empty paragraph between Word's list items does not end the list; content does.
        if (word && out.length > at) {
          out.splice(at, 0, word.list);
          word = undefined;
        }
      } else this.inline(node, depth + 1, run);
    }
    flush();
    endWordList();
    return out;
  }

  /** A Word list paragraph's text without the marker Word drew for it. */
  private wordListText(p: HtmlElement, marker: HtmlElement | undefined, depth: number): Inline[] {
    this.hidden = marker;
    try {
      return tidy(this.inlines(p.children, depth));
    } finally {
      this.hidden = undefined;
    }
  }

  private block(el: HtmlElement, depth: number, out: Block[]): void {
    // Word's "Save as Web Page" writes its Title style as <p class=MsoTitle>, Google Docs as <p class="title">
    // (and "subtitle"): headings of levels 1 and 2, as in DOCX.
    const heading =
      HEADING_TAGS.get(el.tag) ??
      (el.tag === 'p' ? titleLevel(el) : undefined) ??
      this.options.styledHeading?.(el) ??
      0;
    if (heading) {
      // A heading's look (bold in its class or a <b> over all of it) is the heading's, not emphasis.
      const text = withoutWholeEmphasis(tidy(this.inlines(el.children, depth)));
      if (!isBlankInline(text)) out.push({ type: 'heading', level: heading, text });
      return;
    }
    if (el.attrs.style !== undefined && /mso-element:\s*(foot|end)note-list/i.test(el.attrs.style)) {
      return this.wordNotes(el, depth);
    }
    if (this.isNote(el)) return this.takeNote(el, depth);
    switch (el.tag) {
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        return this.list(el, depth, out);
      case 'dl':
        return this.descriptionList(el, depth, out);
      case 'pre':
        out.push(codeBlock(el));
        return;
      case 'blockquote': {
        const blocks = this.blocks(el.children, depth);
        if (blocks.length) out.push({ type: 'quote', blocks });
        return;
      }
      case 'hr':
        if (!isNotesSeparator(el)) out.push({ type: 'rule' });
        return;
      case 'table':
        return this.table(el, depth, out);
      default:
        this.blocks(el.children, depth, out);
    }
  }

  private list(el: HtmlElement, depth: number, out: Block[]): void {
    const items: ListItem[] = [];
    for (const child of el.children) {
      if (typeof child === 'string') {
        if (child.trim()) items.push({ text: tidy(this.text(child)) });
        continue;
      }
      if (this.skipped(child)) continue;
      if (this.isNote(child)) {
        this.takeNote(child, depth);
        continue;
      }
      const blocks: Block[] = [];
      if (child.tag === 'li') {
        const hidden = this.hidden;
        this.hidden = floatedMarker(child) ?? hidden;
        try {
          this.blocks(child.children, depth + 1, blocks);
        } finally {
          this.hidden = hidden;
        }
      } else this.block(child, depth + 1, blocks);
      if (child.tag !== 'li' && items.length) {
        // A list written straight inside a list (invalid, common) belongs to the item before it.
        append((items[items.length - 1]!.children ??= []), blocks);
        continue;
      }
      const first = blocks[0];
      const checked = child.tag === 'li' ? taskBox(child) : undefined;
      const task = checked === undefined ? {} : { checked };
      if (first?.type === 'paragraph') {
        items.push({ text: first.text, children: blocks.length > 1 ? blocks.slice(1) : undefined, ...task });
      } else if (blocks.length) items.push({ text: [], children: blocks, ...task });
    }
    if (!items.length) return;
    const ordered = el.tag === 'ol';
    const start = Number.parseInt(el.attrs.start ?? '', 10);
    out.push({ type: 'list', ordered, start: ordered && Number.isFinite(start) ? start : undefined, items });
  }

  /** <dl>: each term a bold list item, its descriptions nested under it. */
  private descriptionList(dl: HtmlElement, depth: number, out: Block[]): void {
    const items: ListItem[] = [];
    let details: ListItem[] | undefined;
    const entries: HtmlNode[] = [];
    for (const c of dl.children) {
      if (typeof c !== 'string' && c.tag === 'div') append(entries, c.children);
      else entries.push(c);
    }
    for (const el of entries) {
      if (typeof el === 'string' || this.skipped(el)) continue;
      if (el.tag === 'dt') {
        details = [];
        items.push({ text: [{ type: 'strong', children: tidy(this.inlines(el.children, depth)) }] });
      } else if (el.tag === 'dd') {
        if (!details) {
          details = [];
          items.push({ text: [] });
        }
        const blocks = this.blocks(el.children, depth + 1);
        const first = blocks[0];
        if (first?.type === 'paragraph') {
          details.push({ text: first.text, children: blocks.length > 1 ? blocks.slice(1) : undefined });
        } else if (blocks.length) details.push({ text: [], children: blocks });
        items[items.length - 1]!.children = [{ type: 'list', ordered: false, items: details }];
      }
    }
    if (items.length) out.push({ type: 'list', ordered: false, items });
  }

  /**
   * A table as a plain grid: merged cells repeated into each cell they cover (as a reader sees
   * them), nested tables flattened to text, the first row as the header.
   */
  private table(table: HtmlElement, depth: number, out: Block[]): void {
    const rows: HtmlElement[][] = [];
    const captions: HtmlElement[] = [];
    let cellCount = 0;
    const addRow = (tr: HtmlElement): void => {
      const cells: HtmlElement[] = [];
      for (const c of tr.children) if (typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th')) cells.push(c);
      rows.push(cells);
      cellCount += cells.length;
    };
    for (const child of table.children) {
      if (typeof child === 'string' || this.skipped(child)) continue;
      if (child.tag === 'tr') addRow(child);
      else if (child.tag === 'caption') captions.push(child);
      else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') {
        for (const tr of child.children) if (typeof tr !== 'string' && tr.tag === 'tr') addRow(tr);
      }
    }
    // A table of one cell (a frame around a list or another table) or one marked presentational
    // (role="presentation"/"none": columns of a page) is layout: its cells are read as blocks, row by row.
    const role = table.attrs.role;
    if (cellCount <= 1 || role === 'presentation' || role === 'none' || isLayoutGrid(rows, captions.length > 0)) {
      for (const el of captions) this.blocks(el.children, depth, out);
      for (const cells of rows) for (const cell of cells) this.blocks(cell.children, depth, out);
      return;
    }
    const grid: Inline[][][] = [];
    // Rows holding only the start of cells that span down, with gaps beside them, show as no row at all.
    const collapsed = new Set<number>();
    let count = 0;
    rows.forEach((cells, r) => {
      grid[r] ??= [];
      let c = 0;
      let ownRow = false;
      for (const cell of cells) {
        while (grid[r]![c] !== undefined) c++;
        const colspan = span(cell.attrs.colspan);
        const rowspan = span(cell.attrs.rowspan);
        ownRow ||= rowspan === 1 || r + 1 >= rows.length;
        const content = tidy(this.inlines(cell.children, depth + 1));
        for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
          grid[r + dr] ??= [];
          for (let dc = 0; dc < colspan && count < MAX_GRID_CELLS; dc++, count++) grid[r + dr]![c + dc] = content;
        }
        c += colspan;
      }
      if (!ownRow) collapsed.add(r);
    });
    const width = grid.reduce((n, row) => Math.max(n, row.length), 0);
    for (const r of collapsed) {
      const row = grid[r]!;
      let full = true;
      for (let c = 0; c < width && full; c++) full = row[c] !== undefined;
      if (full) collapsed.delete(r);
    }
    for (const el of captions) {
      const text = tidy(this.inlines(el.children, depth));
      if (!isBlankInline(text)) out.push({ type: 'paragraph', text });
    }
    out.push({
      type: 'table',
      rows: grid.filter((_, r) => !collapsed.has(r)).map((row) => Array.from(row, (cell) => cell ?? [])),
      headerRows: 1,
    });
  }

  /**
   * The weight, slant and strike-through a span's classes (the last that says wins) and its style
   * attribute set: Google Docs and LibreOffice's EPUB write every run's look so, never as <b>, <i> or <s>.
   */
  private spanLook(el: HtmlElement): ClassFont | undefined {
    const fonts = this.options.classFonts;
    if (!fonts?.size && el.attrs.style === undefined) return undefined;
    const look: ClassFont = {};
    for (const name of (el.attrs.class ?? '').split(/\s+/)) {
      const font = name ? fonts?.get(name) : undefined;
      if (font?.bold !== undefined) look.bold = font.bold;
      if (font?.italic !== undefined) look.italic = font.italic;
      if (font?.strike !== undefined) look.strike = font.strike;
    }
    if (el.attrs.style !== undefined) {
      const own = declaredFont(el.attrs.style);
      look.bold = own.bold ?? look.bold;
      look.italic = own.italic ?? look.italic;
      look.strike = own.strike ?? look.strike;
    }
    return look;
  }

  /** A text node's inlines: its text, and its formulas on a page that MathJax or KaTeX typesets. */
  private text(value: string): Inline[] {
    return this.options.texInText ? texInText(value, this.options.texInText.dollars) : [textNode(value)];
  }

  /** Inline context: formatting becomes nodes; block elements met here are set apart by spaces. */
  private inlines(nodes: HtmlNode[], depth: number, out: Inline[] = []): Inline[] {
    for (const node of nodes) {
      if (typeof node === 'string') out.push(...this.text(node));
      else if (!this.skipped(node)) {
        if (depth >= MAX_HTML_DEPTH) out.push(textNode(` ${textOf(node)} `));
        else this.inline(node, depth + 1, out);
      }
    }
    return out;
  }

  private inline(el: HtmlElement, depth: number, out: Inline[]): void {
    const tex = el.tag === 'span' ? spanTex(el) : undefined;
    if (tex !== undefined) {
      if (tex.text) out.push({ type: 'math', tex: tex.text, display: tex.display });
      return;
    }
    const look = el.tag === 'span' ? this.spanLook(el) : undefined;
    if (look?.bold || look?.italic || look?.strike) {
      let children = this.inlines(el.children, depth);
      if (look.strike) children = [{ type: 'strike', children }];
      if (look.italic) children = [{ type: 'emphasis', children }];
      if (look.bold) children = [{ type: 'strong', children }];
      out.push(...children);
      return;
    }
    switch (el.tag) {
      case 'strong':
      case 'b':
        out.push({ type: 'strong', children: this.inlines(el.children, depth) });
        return;
      case 'em':
      case 'i':
      case 'var':
      case 'dfn':
        out.push({ type: 'emphasis', children: this.inlines(el.children, depth) });
        return;
      case 's':
      case 'strike':
      case 'del':
        out.push({ type: 'strike', children: this.inlines(el.children, depth) });
        return;
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        out.push({ type: 'code', text: textOf(el).replace(/\s+/g, ' ') });
        return;
      case 'a': {
        // Word's note marks: the reference (#_ftn1) becomes a note reference, the note's link back (#_ftnref1) goes.
        if (el.attrs.style !== undefined && /mso-(foot|end)note-id/i.test(el.attrs.style)) {
          const note = /^#_((?:ftn|edn)\d+)$/.exec(el.attrs.href ?? '')?.[1];
          if (note) out.push({ type: 'noteRef', id: this.noteLabel(note) });
          return;
        }
        // A mark pointing to a footnote or endnote of this page; the note's link back goes.
        const target = el.attrs.href?.startsWith('#') ? el.attrs.href.slice(1) : undefined;
        if (target !== undefined && this.noteTargets.has(target)) {
          out.push({ type: 'noteRef', id: this.noteLabel(target) });
          return;
        }
        // A mark pointing to a note in another page of the book.
        const bookNote =
          target === undefined && el.attrs.href ? this.options.bookNotes?.refLabel(el.attrs.href) : undefined;
        if (bookNote !== undefined) {
          out.push({ type: 'noteRef', id: bookNote });
          return;
        }
        if (el.attrs.role === 'doc-backlink') return;
        const inner = this.inlines(el.children, depth);
        const url = linkTarget(el.attrs.href);
        const intoBook = this.options.dropRelativeLinks && url !== undefined && !HAS_SCHEME.test(url);
        // A link within the page (or the book) showing only a symbol is a permalink or back link (¶
        // beside a heading, ↩ or ^ after a note): page furniture, not text.
        if ((el.attrs.href?.startsWith('#') || intoBook) && isOnlySymbols(inner)) return;
        // In a note, a link within the page showing the note's number leads back to its mark
        // (LibreOffice's EPUB: `<sup><a href="#calledF1">1</a></sup>Source…`; InDesign's names the chapter file).
        if (this.inNote && (el.attrs.href?.startsWith('#') || intoBook) && NOTE_NUMBER.test(inlineText(inner))) return;
        const kept = url && !intoBook;
        if (kept && !isBlankInline(inner)) out.push({ type: 'link', url, children: inner });
        else append(out, inner);
        return;
      }
      case 'img': {
        const alt = (el.attrs.alt ?? '').replace(/\s+/g, ' ').trim();
        if (alt) out.push({ type: 'image', alt });
        return;
      }
      case 'br':
        out.push({ type: 'break' });
        return;
      case 'q':
        // Browsers draw an inline quotation with quotation marks; the text keeps them.
        out.push(textNode('“'));
        this.inlines(el.children, depth, out);
        out.push(textNode('”'));
        return;
      case 'sup':
      case 'sub': {
        // Kept raised or lowered (the writer's <sup>/<sub>): "x2" would read as another number.
        // A note mark that is only a link ([1] to the references) stays a plain link.
        const inner = this.inlines(el.children, depth);
        const mark = (n: Inline): boolean =>
          n.type === 'link' || n.type === 'noteRef' || (n.type === 'text' && !/\S/.test(n.text));
        if (isBlankInline(inner) || inner.every(mark)) append(out, inner);
        else out.push({ type: el.tag === 'sup' ? 'superscript' : 'subscript', children: inner });
        return;
      }
      case 'math': {
        const tex = mathTex(el);
        out.push(tex ? { type: 'math', tex, display: el.attrs.display === 'block' } : textNode(textOf(el)));
        return;
      }
      case 'script': {
        // Only a MathJax 2 source script gets here (see `skipped`): its TeX is the formula.
        const tex = textOf(el).trim();
        if (tex) out.push({ type: 'math', tex, display: /mode\s*=\s*display/i.test(el.attrs.type ?? '') });
        return;
      }
      case 'ul':
      case 'ol':
      case 'menu': {
        // A list inside a table cell stays on the cell's line, its items set apart by dashes.
        out.push(textNode(' '));
        let first = true;
        for (const li of el.children) {
          if (typeof li === 'string' || li.tag !== 'li' || this.skipped(li)) continue;
          const nodes = this.inlines(li.children, depth);
          if (isBlankInline(nodes)) continue;
          if (!first) out.push(textNode(' - '));
          first = false;
          append(out, nodes);
        }
        out.push(textNode(' '));
        return;
      }
      default: {
        const apart = BLOCK_TAGS.has(el.tag) || el.tag === 'td' || el.tag === 'th' || isLabelInRow(el);
        if (apart) out.push(textNode(' '));
        this.inlines(el.children, depth, out);
        if (apart) out.push(textNode(' '));
      }
    }
  }

  private skipped(el: HtmlElement): boolean {
    if (el.tag === 'script' && TEX_SCRIPT.test(el.attrs.type ?? '')) return false;
    if (SKIPPED_TAGS.has(el.tag) || el.attrs.hidden !== undefined || el === this.hidden) return true;
    if (isMathJaxRendering(el)) return true;
    if (el.attrs.style !== undefined && /display:\s*none/i.test(el.attrs.style) && !isAccessibleMath(el)) return true;
    if (this.chrome === 'none') return false;
    if (this.chrome !== 'all' && this.chrome.has(el)) return false;
    return isChrome(el, this.options.bookPage === true, this.options.proseHolders);
  }
}

/**
 * A label beside other labels: the tab names of a tabbed block (MkDocs Material's `tabbed-labels`),
 * written back to back, are separate words ("pip conda", not "pipconda").
 */
function isLabelInRow(el: HtmlElement): boolean {
  return el.tag === 'label' && el.parent !== undefined && labelCount(el.parent) > 1;
}

/** Labels among an element's children, counted once per element (a page of 200,000 labels stays linear). */
const labelCounts = new WeakMap<HtmlElement, number>();
function labelCount(parent: HtmlElement): number {
  let n = labelCounts.get(parent);
  if (n === undefined) {
    n = parent.children.filter((c) => typeof c !== 'string' && c.tag === 'label').length;
    labelCounts.set(parent, n);
  }
  return n;
}

/**
 * MathML hidden from sight but kept for screen readers beside a picture of the formula that is
 * hidden from them (Wikipedia's `mwe-math-mathml-a11y` span, its `<img aria-hidden>` after it):
 * the formula's only text, read instead of the picture.
 */
function isAccessibleMath(el: HtmlElement): boolean {
  const elements = el.children.filter((c): c is HtmlElement => typeof c !== 'string');
  return elements.length === 1 && elements[0]!.tag === 'math';
}

/** pandoc's math (`--mathjax`, `--katex`, Quarto, R Markdown): `<span class="math inline">\(x^2\)</span>`. */
const MATH_SPAN = /(?:^|\s)math\s+(inline|display)(?:\s|$)/;
/** The delimiters MathJax and KaTeX find math by, around the TeX in such a span. */
const TEX_DELIMITERS = /^\s*(?:\\\(([\s\S]*)\\\)|\\\[([\s\S]*)\\\]|\$\$([\s\S]*)\$\$|\$([\s\S]*)\$)\s*$/;

/**
 * The TeX of a pandoc math span, its delimiters removed; undefined when the span is no such span
 * or holds markup (pandoc's own rendering of simple math as italics and superscripts, kept as it is).
 */
function spanTex(el: HtmlElement): { text: string; display: boolean } | undefined {
  const kind = MATH_SPAN.exec(el.attrs.class ?? '')?.[1];
  if (!kind || el.children.some((c) => typeof c !== 'string')) return undefined;
  const raw = textOf(el);
  const m = TEX_DELIMITERS.exec(raw);
  const text = (m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '') : raw).trim();
  return { text, display: kind === 'display' };
}

/**
 * Whether the page has MathJax or KaTeX find and typeset TeX in its text (`\\(x\\)`, `\\[x\\]`,
 * `$$x$$`, `\\begin{align}…\\end{align}`): a script loading either or configuring MathJax
 * (calibre's and Jupyter's pages, blogs). `dollars` when the configuration makes `$…$` inline math
 * (Jupyter's `inlineMath: [['$','$'], …]`); by default neither typesets a single dollar.
 */
function texTypesetting(root: HtmlElement): { dollars: boolean } | undefined {
  let found = false;
  let dollars = false;
  for (const el of descendantsOf(root)) {
    if (el.tag !== 'script') continue;
    const body = textOf(el);
    const loads = /mathjax|katex/i.test(el.attrs.src ?? '') || /mathjax-config/i.test(el.attrs.type ?? '');
    if (!loads && !/\bMathJax\b|\brenderMathInElement\b/.test(body)) continue;
    found = true;
    if (
      /inlineMath['"]?\s*[:=]\s*\[\s*\[\s*['"]\$['"]/.test(body) ||
      /left:\s*['"]\$['"],\s*right:\s*['"]\$['"]/.test(body)
    )
      dollars = true;
  }
  return found ? { dollars } : undefined;
}

/** Where a TeX formula may open in text: `\\(`, `\\[`, `$$`, `\\begin{env}`, and `$` (an escaped `\\$` is a dollar). */
const TEX_OPENER = /\\\(|\\\[|\$\$|\\begin\{([a-zA-Z]+\*?)\}|(?<!\\)\$/g;

/**
 * A text node of a page MathJax or KaTeX typesets, its formulas between their delimiters as math
 * (inline for `\\(…\\)` and `$…$`, display for the others, an environment kept whole); an
 * opener without its closer stays text, as the typesetter leaves it.
 */
function texInText(value: string, dollars: boolean): Inline[] {
  const out: Inline[] = [];
  let rest = 0;
  TEX_OPENER.lastIndex = 0;
  for (let m = TEX_OPENER.exec(value); m; m = TEX_OPENER.exec(value)) {
    const open = m[0];
    if (open === '$' && !dollars) continue;
    const close = open === '\\(' ? '\\)' : open === '\\[' ? '\\]' : m[1] !== undefined ? `\\end{${m[1]}}` : open;
    const end = value.indexOf(close, m.index + open.length);
    if (end < 0) continue;
    const inner = value.slice(m.index + open.length, end);
    const tex = (m[1] !== undefined ? open + inner + close : inner).replace(/\s+/g, ' ').trim();
    if (!tex || (open === '$' && (/^\s|\s$/.test(inner) || inner.includes('\n\n')))) continue;
    if (m.index > rest) out.push(textNode(value.slice(rest, m.index)));
    out.push({ type: 'math', tex, display: open !== '\\(' && open !== '$' });
    rest = end + close.length;
    TEX_OPENER.lastIndex = rest;
  }
  if (!out.length) return [textNode(value)];
  if (rest < value.length) out.push(textNode(value.slice(rest)));
  return out;
}

/** MathJax 2's source of a formula: `<script type="math/tex">` or `math/tex; mode=display`. */
const TEX_SCRIPT = /^\s*math\/tex\b/i;
/** What MathJax 2 drew for a formula from its script (`MathJax-Element-1-Frame`), and its preview: the script is read instead. */
const MATHJAX_FRAME = /^MathJax-Element-\d+-Frame$/;

function isMathJaxRendering(el: HtmlElement): boolean {
  return MATHJAX_FRAME.test(el.attrs.id ?? '') || /(?:^|\s)MathJax_Preview(?:\s|$)/.test(el.attrs.class ?? '');
}

const HEADING_TAGS = new Map([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
]);

/**
 * A paragraph Word saved as a list item ("Save as Web Page": `style="mso-list:l0 level2 lfo1"`),
 * with the marker Word drew in a `mso-list:Ignore` span (a bullet glyph, "1.", "a)").
 */
function wordListItem(
  el: HtmlElement,
): { list: string; level: number; marker: string; markerElement?: HtmlElement } | undefined {
  if (el.tag !== 'p' || el.attrs.style === undefined) return undefined;
  const [, list, level] = /mso-list:\s*(l\d+)\s+level(\d+)/i.exec(el.attrs.style) ?? [];
  if (!list || !level) return undefined;
  // The marker comes first in the paragraph, a few elements down.
  const stack: HtmlNode[] = el.children.slice(0, 4).reverse();
  for (let seen = 0; stack.length && seen < 16; seen++) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (/mso-list:\s*ignore/i.test(node.attrs.style ?? '')) {
      const marker = textOf(node).replace(/[\s\u00a0]+/g, '');
      return { list, level: Math.min(Number(level), 9), marker, markerElement: node };
    }
    for (let i = Math.min(node.children.length, 4) - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return { list, level: Math.min(Number(level), 9), marker: '' };
}

/** The heading level a paragraph's class gives it as a document title or subtitle, else undefined. */
function titleLevel(p: HtmlElement): number | undefined {
  const cls = p.attrs.class ?? '';
  if (/\bMsoTitle\b|(?:^|\s)title(?:\s|$)/.test(cls)) return 1;
  if (/(?:^|\s)subtitle(?:\s|$)/.test(cls)) return 2;
  return undefined;
}

type ListBlock = Extract<Block, { type: 'list' }>;

/** The class rules of the <style> elements in the page's <head> (html > head > style). */
function headClassFonts(root: HtmlElement): Map<string, ClassFont> {
  const fonts = new Map<string, ClassFont>();
  const children = (el: HtmlElement | undefined, tag: string): HtmlElement[] =>
    (el?.children ?? []).filter((c): c is HtmlElement => typeof c !== 'string' && c.tag === tag);
  const html = children(root, 'html')[0] ?? root;
  for (const head of children(html, 'head'))
    for (const style of children(head, 'style')) readClassFonts(textOf(style), fonts);
  return fonts;
}

/**
 * Google Docs' HTML writes each level of a list as its own flat <ul>/<ol>, one after another,
 * classed `lst-kix_<list id>-<level>`.
 */
const KIX_LIST = /(?:^|\s)lst-kix_(\S+)-(\d+)(?:\s|$)/;

/** One Google Docs list being joined: its first part (in the output) and the lists open at each level. */
interface KixLists {
  id: string;
  root: ListBlock;
  open: Array<{ level: number; list: ListBlock }>;
}

/** The next part of a Google Docs list: nested under the last item above its level, or continuing its level. */
function nestKixList(lists: KixLists, level: number, list: ListBlock): void {
  while (lists.open.length > 1 && lists.open[lists.open.length - 1]!.level > level) lists.open.pop();
  const top = lists.open[lists.open.length - 1]!;
  const parent = top.list.items[top.list.items.length - 1];
  if (top.level >= level || !parent) {
    append(top.list.items, list.items);
    return;
  }
  (parent.children ??= []).push(list);
  lists.open.push({ level, list });
}

/** One Word list's paragraphs (same `l<n>` id) as a list, nested by their levels; numbered when the marker is a number or letter. */
class WordList {
  constructor(readonly id: string) {}

  readonly list: ListBlock = { type: 'list', ordered: false, items: [] };
  private readonly open: Array<{ list: ListBlock; level: number }> = [{ list: this.list, level: 0 }];

  add(level: number, marker: string, text: Inline[]): void {
    while (this.open.length > 1 && this.open[this.open.length - 1]!.level > level) this.open.pop();
    let top = this.open[this.open.length - 1]!;
    const parent = top.list.items[top.list.items.length - 1];
    if (top.list.items.length === 0) top.level = level;
    else if (level > top.level && parent) {
      const nested: ListBlock = { type: 'list', ordered: false, items: [] };
      (parent.children ??= []).push(nested);
      top = { list: nested, level };
      this.open.push(top);
    }
    if (top.list.items.length === 0) {
      const number = /^\(?(\d{1,9}|[a-z]{1,5})[.)]$/i.exec(marker)?.[1];
      top.list.ordered = number !== undefined;
      if (number && /^\d+$/.test(number) && number !== '1') top.list.start = Number(number);
    }
    top.list.items.push({ text });
  }
}

/** A colspan or rowspan as browsers read it: its leading digits (HTML's non-negative integer rules), so `3"` or `2px` spans. */
function span(value: string | undefined): number {
  const n = value === undefined ? 1 : parseInt(value.trim(), 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), MAX_SPAN) : 1;
}

/** A list marker as typed: a number or letter and its stop, or a bullet. */
const MARKER_TEXT = /^(?:\(?(?:\d{1,4}|[a-z]{1,4})[.)]|[•◦▪■●○‣⁃–-])$/i;

/**
 * The marker a list item draws itself, floated left before its text, beside the one its list
 * shows (LibreOffice's XHTML export: `<li><p><span class="ListLabel_20_1" style="float:left">1.</span>`).
 */
function floatedMarker(li: HtmlElement): HtmlElement | undefined {
  let el: HtmlElement | undefined = li;
  for (let level = 0; el && level < 3; level++) {
    const first: HtmlNode | undefined = el.children.find((c) => typeof c !== 'string' || c.trim() !== '');
    if (!first || typeof first === 'string') return undefined;
    if (/float:\s*left/i.test(first.attrs.style ?? '') && MARKER_TEXT.test(textOf(first).trim())) return first;
    el = first;
  }
  return undefined;
}

/** A checkbox drawn by an element's classes (Notion's export: `<div class="checkbox checkbox-on">`): ticked or not. */
function drawnCheckbox(el: HtmlElement): boolean | undefined {
  const words = (el.attrs.class ?? '').toLowerCase().split(/\s+/);
  if (!words.includes('checkbox')) return undefined;
  if (words.includes('checkbox-on') || words.includes('checkbox-checked')) return true;
  if (words.includes('checkbox-off') || words.includes('checkbox-unchecked')) return false;
  return undefined;
}

/**
 * A task list item's box (GitHub, markdown-it, pandoc): the checkbox that comes before any of the
 * item's text, ticked or not; undefined when the item starts otherwise.
 */
function taskBox(li: HtmlElement): boolean | undefined {
  const stack: HtmlNode[] = li.children.slice().reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      if (node.trim()) return undefined;
      continue;
    }
    if (node.tag === 'input')
      return node.attrs.type?.toLowerCase() === 'checkbox' ? node.attrs.checked !== undefined : undefined;
    const drawn = drawnCheckbox(node);
    if (drawn !== undefined) return drawn;
    if (node.tag === 'ul' || node.tag === 'ol') return undefined;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return undefined;
}

/** <pre>: a fenced block in the language its classes name, indentation shared by every line removed. */
function codeBlock(pre: HtmlElement): Block {
  const code = pre.children.find((c): c is HtmlElement => typeof c !== 'string' && c.tag === 'code');
  // Sphinx wraps the <pre> twice: `<div class="highlight-console"><div class="highlight"><pre>`.
  const wrapper = pre.parent?.attrs.class?.trim() === 'highlight' ? pre.parent.parent : undefined;
  const language = [pre, code, pre.parent, wrapper]
    .flatMap((el) => LANGUAGE_CLASS.map((re) => re.exec(el?.attrs.class ?? '')?.[1]))
    .find((l) => l && !/^(none|plain|text|nohighlight)$/i.test(l));
  return { type: 'code', text: dedent(preText(pre)), language: language?.toLowerCase() };
}

const LINE_END = Symbol('line end');
/** Classes of the line-number gutter highlighters put inside code (Pygments `linenos`, Prism `line-numbers-rows`). */
const LINE_NUMBERS = /(?:^|\s)(?:linenos?|line-?numbers?(?:-rows)?|gutter)(?:\s|$)/i;

/**
 * The text of a <pre> as it shows: <br> and the end of each block element inside (highlighters
 * that wrap every line in a <div>) break the line; buttons, scripts and the like are no code.
 */
function preText(pre: HtmlElement): string {
  const parts: string[] = [];
  const stack: Array<HtmlNode | typeof LINE_END> = pre.children.slice().reverse();
  const newline = (): void => {
    const last = parts[parts.length - 1];
    if (last !== undefined && !last.endsWith('\n')) parts.push('\n');
  };
  while (stack.length) {
    const node = stack.pop()!;
    if (node === LINE_END) newline();
    else if (typeof node === 'string') parts.push(node);
    else if (node.tag === 'br') parts.push('\n');
    else if (!SKIPPED_TAGS.has(node.tag) && !LINE_NUMBERS.test(node.attrs.class ?? '')) {
      if (BLOCK_TAGS.has(node.tag)) stack.push(LINE_END);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return parts.join('');
}

/** Code text without the blank edge lines and the indentation every line shares (from the HTML source layout). */
function dedent(text: string): string {
  const lines = text
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length));
  return Number.isFinite(indent) && indent > 0 ? lines.map((l) => l.slice(indent)).join('\n') : lines.join('\n');
}

/** Where a link leads: search engines' tracking redirects unwrapped, script pseudo-links dropped. */
/** An absolute address: a scheme (`https:`, `mailto:`) or a network path (`//host/...`). */
const HAS_SCHEME = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function linkTarget(href: string | undefined): string | undefined {
  const raw = href?.trim();
  if (!raw) return undefined;
  const target = unwrapRedirect(raw) ?? raw;
  return /^javascript:/i.test(target) ? undefined : target;
}

/** The destination of a search engine's click-tracking link (Bing ck/a, Google /url, DuckDuckGo /l/), if it is one. */
function unwrapRedirect(href: string): string | undefined {
  if (!/^https?:\/\/[^/]*(bing|google|duckduckgo)\./i.test(href)) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const u = url.searchParams.get('u');
  if (url.pathname.startsWith('/ck/') && u?.startsWith('a1')) {
    const decoded = Buffer.from(u.slice(2).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/^javascript:/i.test(decoded)) return decoded;
    return /^(https?:\/\/|\/[^/])/.test(decoded) ? new URL(decoded, url.origin).href : undefined;
  }
  const target =
    url.searchParams.get('uddg') ??
    (url.pathname === '/url' ? (url.searchParams.get('q') ?? url.searchParams.get('url')) : null);
  return target && /^https?:\/\//.test(target) ? target : undefined;
}

/** Words a drawing's text elements hold on average, at least, to be read as text: prose set as SVG, not a chart's labels. */
const SVG_PROSE_WORDS = 3;

/**
 * The text an SVG drawing sets as prose, a paragraph per `<text>` element (its spans are the lines
 * of that paragraph): fixed-layout e-book pages and pages converted from PDF draw their text so.
 * A chart's or an icon's labels (a word or two each) stay out, as the drawing itself does.
 */
function svgText(svg: HtmlElement): Block[] {
  const texts: string[] = [];
  const stack: HtmlNode[] = [...svg.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') continue;
    if (n.tag === 'text') {
      const value = svgLines(n).replace(/\s+/g, ' ').trim();
      if (value) texts.push(value);
    } else stack.push(...n.children);
  }
  texts.reverse();
  const words = texts.reduce((sum, t) => sum + t.split(' ').length, 0);
  if (!texts.length || words / texts.length < SVG_PROSE_WORDS) return [];
  return texts.map((value): Block => ({ type: 'paragraph', text: [textNode(value)] }));
}

/** A `<text>` element's text: its spans in order, a space where a span starts a new line (another `y`). */
function svgLines(text: HtmlElement): string {
  let out = '';
  let lineY: string | undefined;
  const stack: HtmlNode[] = [...text.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') out += n;
    else if (n.tag !== 'title' && n.tag !== 'desc') {
      const y = n.attrs.y;
      if (y !== undefined && lineY !== undefined && y !== lineY) out += ' ';
      if (y !== undefined) lineY = y;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  return out;
}

/** Only text, and no letter or digit in it (an empty link, a pilcrow, an arrow). */
/** A note's number as its mark shows it: 1, [12], (a), iv, *. */
const NOTE_NUMBER = /^\s*[[(]?(?:\d{1,4}|[a-z]|[ivx]{1,5}|\*{1,3})[\])]?\.?\s*$/i;

function isOnlySymbols(nodes: Inline[]): boolean {
  const stack: Inline[][] = [nodes];
  while (stack.length) {
    for (const n of stack.pop()!) {
      if (n.type === 'text') {
        if (/[\p{L}\p{N}]/u.test(n.text)) return false;
      } else if (isFormatting(n)) stack.push(n.children);
      else if (n.type !== 'break') return false;
    }
  }
  return true;
}

/** HTML white space: runs collapse to one space, across formatting boundaries too; none after a break. */
function tidy(nodes: Inline[]): Inline[] {
  const state = { spaced: true };
  return tidyInto(nodes, state, []);
}

const HTML_SPACE = /[ \t\n\r\f]+/g;

function tidyInto(list: Inline[], state: { spaced: boolean }, out: Inline[]): Inline[] {
  for (const n of list) {
    switch (n.type) {
      case 'text': {
        let t = n.text.replace(HTML_SPACE, ' ');
        if (state.spaced && t.charCodeAt(0) === 32) t = t.slice(1);
        if (!t) continue;
        state.spaced = t.charCodeAt(t.length - 1) === 32;
        out.push(t === n.text ? n : { type: 'text', text: t });
        break;
      }
      case 'break':
        state.spaced = true;
        out.push(n);
        break;
      case 'strong':
      case 'emphasis':
      case 'strike':
      case 'superscript':
      case 'subscript':
      case 'link':
        out.push({ ...n, children: tidyInto(n.children, state, []) });
        break;
      default:
        state.spaced = false;
        out.push(n);
    }
  }
  return out;
}
