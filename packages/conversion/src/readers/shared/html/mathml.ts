import { textOf, type HtmlElement, type HtmlNode } from './dom';

/** Annotation encodings that hold the formula's TeX source (pandoc, KaTeX, MathJax, Wikipedia). */
const TEX_ENCODING = /^(?:application\/x-tex|tex|latex|application\/x-latex)$/i;
/** MathML nested deeper than this is read as its plain text (hostile nesting). */
const MAX_MATH_DEPTH = 100;
/** Operators written as TeX commands; other characters (π, ≤) stay as they are, which TeX renderers accept. */
const OPERATORS: Record<string, string> = { '−': '-', '∗': '*', '\u2061': '', '\u2062': '', '\u2063': '' };
/** Accents drawn over a base by <mover accent>. */
const ACCENTS: Record<string, string> = {
  '^': '\\hat',
  ˆ: '\\hat',
  '¯': '\\bar',
  '‾': '\\overline',
  '→': '\\vec',
  '˙': '\\dot',
  '~': '\\tilde',
  '˜': '\\tilde',
};

/**
 * A <math> element as TeX: its `alttext`, else its TeX annotation, else its presentation markup
 * rewritten (fractions, scripts, roots, tables), so `x = -b ± …` never reads as "x=−b±b2−4ac2a".
 */
export function mathTex(math: HtmlElement): string {
  const alt = math.attrs.alttext?.trim();
  if (alt) return alt;
  const annotation = findAnnotation(math);
  if (annotation) return annotation;
  return presentation(math.children, 0).replace(/\s+/g, ' ').trim();
}

function findAnnotation(math: HtmlElement): string | undefined {
  const stack: HtmlNode[] = [...math.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') continue;
    if (n.tag === 'annotation' && TEX_ENCODING.test(n.attrs.encoding ?? '')) return textOf(n).trim() || undefined;
    stack.push(...n.children);
  }
  return undefined;
}

function presentation(nodes: HtmlNode[], depth: number): string {
  return nodes
    .filter((n): n is HtmlElement => typeof n !== 'string')
    .map((n) => element(n, depth + 1))
    .join('');
}

/** One argument of a script or fraction: braced unless it is a single character. */
function arg(el: HtmlElement | undefined, depth: number): string {
  const tex = el ? element(el, depth).trim() : '';
  return [...tex].length === 1 ? tex : `{${tex}}`;
}

/**
 * The first argument after a command (`\frac`, `\dot`): a single letter is braced too, since TeX
 * reads letters after a command as part of its name (`\fracnk`, `\dotx` are undefined commands); a
 * Greek or other non-ASCII one too, which Unicode TeX engines read as a letter (`\fracπ2`).
 */
function commandArg(el: HtmlElement | undefined, depth: number): string {
  const tex = arg(el, depth);
  return /^\p{L}$/u.test(tex) ? `{${tex}}` : tex;
}

function element(el: HtmlElement, depth: number): string {
  if (depth > MAX_MATH_DEPTH) return textOf(el);
  const kids = el.children.filter((n): n is HtmlElement => typeof n !== 'string');
  const [a, b, c] = kids;
  switch (el.tag) {
    case 'mi':
    case 'mn':
      return token(textOf(el).trim());
    case 'mo': {
      const op = textOf(el).trim();
      return OPERATORS[op] ?? token(op);
    }
    case 'mtext':
    case 'ms':
      return textOf(el).trim() ? `\\text{${textOf(el).trim()}}` : ' ';
    case 'mspace':
      return ' ';
    case 'mfrac':
      return `\\frac${commandArg(a, depth)}${arg(b, depth)}`;
    case 'msqrt':
      return `\\sqrt{${presentation(el.children, depth)}}`;
    case 'mroot':
      return `\\sqrt[${a ? element(a, depth) : ''}]${arg(b, depth)}`;
    case 'msup':
      return `${arg(a, depth)}^${arg(b, depth)}`;
    case 'msub':
      return `${arg(a, depth)}_${arg(b, depth)}`;
    case 'msubsup':
      return `${arg(a, depth)}_${arg(b, depth)}^${arg(c, depth)}`;
    case 'munder':
      return `${arg(a, depth)}_${arg(b, depth)}`;
    case 'munderover':
      return `${arg(a, depth)}_${arg(b, depth)}^${arg(c, depth)}`;
    case 'mover': {
      const accent = b ? ACCENTS[textOf(b).trim()] : undefined;
      return accent ? `${accent}${commandArg(a, depth)}` : `${arg(a, depth)}^${arg(b, depth)}`;
    }
    case 'mfenced': {
      const open = fence(el.attrs.open ?? '(');
      const close = fence(el.attrs.close ?? ')');
      return `\\left${open} ${kids.map((k) => element(k, depth)).join(el.attrs.separators ?? ',')} \\right${close}`;
    }
    case 'mtable':
      return `\\begin{matrix} ${kids.map((row) => element(row, depth)).join(' \\\\ ')} \\end{matrix}`;
    case 'mtr':
    case 'mlabeledtr':
      return kids.map((cell) => element(cell, depth)).join(' & ');
    case 'annotation':
    case 'annotation-xml':
      return '';
    default:
      // mrow, mstyle, mpadded, mphantom, semantics, mtd and the like: their children in order.
      return presentation(el.children, depth);
  }
}

/** A fence as `\\left`/`\\right` take it: none is `.`, braces are escaped. */
function fence(ch: string): string {
  if (!ch.trim()) return '.';
  return ch === '{' || ch === '}' ? `\\${ch}` : ch;
}

/** A name of several letters is set upright as an operator name (`sin`); TeX specials are escaped. */
function token(text: string): string {
  const escaped = text.replace(/[\\{}%$#&_]/g, (ch) => (ch === '\\' ? '\\backslash ' : `\\${ch}`));
  return /^[A-Za-z]{2,}$/.test(text) ? `\\operatorname{${escaped}}` : escaped;
}
