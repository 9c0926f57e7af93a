import type { Element } from '@xmldom/xmldom';
import { attr, child, children } from './xml-dom';

/** Unicode math characters Word stores literally, as the LaTeX commands a reader expects. */
const SYMBOLS: Record<string, string> = {
  α: '\\alpha',
  β: '\\beta',
  γ: '\\gamma',
  δ: '\\delta',
  ε: '\\epsilon',
  ϵ: '\\epsilon',
  ζ: '\\zeta',
  η: '\\eta',
  θ: '\\theta',
  ι: '\\iota',
  κ: '\\kappa',
  λ: '\\lambda',
  μ: '\\mu',
  ν: '\\nu',
  ξ: '\\xi',
  π: '\\pi',
  ρ: '\\rho',
  σ: '\\sigma',
  τ: '\\tau',
  υ: '\\upsilon',
  φ: '\\phi',
  ϕ: '\\phi',
  χ: '\\chi',
  ψ: '\\psi',
  ω: '\\omega',
  Γ: '\\Gamma',
  Δ: '\\Delta',
  Θ: '\\Theta',
  Λ: '\\Lambda',
  Ξ: '\\Xi',
  Π: '\\Pi',
  Σ: '\\Sigma',
  Φ: '\\Phi',
  Ψ: '\\Psi',
  Ω: '\\Omega',
  '∞': '\\infty',
  '×': '\\times',
  '÷': '\\div',
  '·': '\\cdot',
  '⋅': '\\cdot',
  '±': '\\pm',
  '∓': '\\mp',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '≈': '\\approx',
  '≡': '\\equiv',
  '∼': '\\sim',
  '∝': '\\propto',
  '→': '\\rightarrow',
  '←': '\\leftarrow',
  '⇒': '\\Rightarrow',
  '⇔': '\\Leftrightarrow',
  '↔': '\\leftrightarrow',
  '∈': '\\in',
  '∉': '\\notin',
  '⊂': '\\subset',
  '⊆': '\\subseteq',
  '∪': '\\cup',
  '∩': '\\cap',
  '∅': '\\emptyset',
  '∀': '\\forall',
  '∃': '\\exists',
  '∂': '\\partial',
  '∇': '\\nabla',
  '…': '\\ldots',
  '⋯': '\\cdots',
  '°': '^{\\circ}',
  '′': "'",
  '−': '-',
};

const NARY: Record<string, string> = {
  '∑': '\\sum',
  '∏': '\\prod',
  '∐': '\\coprod',
  '∫': '\\int',
  '∬': '\\iint',
  '∭': '\\iiint',
  '∮': '\\oint',
  '⋃': '\\bigcup',
  '⋂': '\\bigcap',
  '⋀': '\\bigwedge',
  '⋁': '\\bigvee',
  '∯': '\\oiint',
  '∰': '\\oiiint',
};

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat',
  '\u0304': '\\bar',
  '\u0305': '\\bar',
  '\u0307': '\\dot',
  '\u0308': '\\ddot',
  '\u0303': '\\tilde',
  '\u20d7': '\\vec',
  '\u030c': '\\check',
  '\u0301': '\\acute',
  '\u0300': '\\grave',
  '\u0306': '\\breve',
};

const FUNCTIONS = new Set([
  'sin',
  'cos',
  'tan',
  'cot',
  'sec',
  'csc',
  'sinh',
  'cosh',
  'tanh',
  'log',
  'ln',
  'exp',
  'lim',
  'max',
  'min',
  'det',
  'arcsin',
  'arccos',
  'arctan',
]);

const DELIMITERS: Record<string, string> = {
  '{': '\\{',
  '}': '\\}',
  '|': '|',
  '‖': '\\|',
  '⟨': '\\langle',
  '⟩': '\\rangle',
  '⌈': '\\lceil',
  '⌉': '\\rceil',
  '⌊': '\\lfloor',
  '⌋': '\\rfloor',
};

/** An m:oMath (or m:oMathPara) element as LaTeX, for `$…$` and `$$…$$` in Markdown. */
export function ommlToLatex(el: Element): string {
  if (el.localName === 'oMathPara') {
    return children(el, 'oMath')
      .map((m) => ommlToLatex(m))
      .join(' \\\\ ');
  }
  return seq(el).replace(/\s+/g, ' ').trim();
}

function seq(el: Element | undefined): string {
  if (!el) return '';
  return children(el)
    .map(node)
    .join('')
    .replace(/\s{2,}/g, ' ');
}

const group = (s: string): string => `{${s}}`;
const arg = (el: Element, local: string): string => seq(child(el, local));
const prop = (el: Element, pr: string, local: string): string | undefined => attr(child(child(el, pr), local), 'val');

function node(el: Element): string {
  switch (el.localName) {
    case 'r':
      return runText(el);
    case 'f': {
      const num = arg(el, 'num');
      const den = arg(el, 'den');
      const type = prop(el, 'fPr', 'type');
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}${group(num)}${group(den)}`;
      if (type === 'lin') return `${num}/${den}`;
      return `\\frac${group(num)}${group(den)}`;
    }
    case 'sSup':
      return `${arg(el, 'e')}^${group(arg(el, 'sup'))}`;
    case 'sSub':
      return `${arg(el, 'e')}_${group(arg(el, 'sub'))}`;
    case 'sSubSup':
      return `${arg(el, 'e')}_${group(arg(el, 'sub'))}^${group(arg(el, 'sup'))}`;
    case 'sPre':
      return `{}_${group(arg(el, 'sub'))}^${group(arg(el, 'sup'))}${arg(el, 'e')}`;
    case 'rad': {
      const deg = arg(el, 'deg');
      return deg ? `\\sqrt[${deg}]${group(arg(el, 'e'))}` : `\\sqrt${group(arg(el, 'e'))}`;
    }
    case 'nary': {
      const chr = prop(el, 'naryPr', 'chr') ?? '∫';
      let out = NARY[chr] ?? chr;
      const sub = arg(el, 'sub');
      const sup = arg(el, 'sup');
      if (sub) out += `_${group(sub)}`;
      if (sup) out += `^${group(sup)}`;
      return `${out} ${arg(el, 'e')}`;
    }
    case 'd': {
      const beg = prop(el, 'dPr', 'begChr') ?? '(';
      const end = prop(el, 'dPr', 'endChr') ?? ')';
      const sep = prop(el, 'dPr', 'sepChr') ?? '|';
      const inner = children(el, 'e')
        .map(seq)
        .join(sep === '|' ? '|' : sep);
      return `\\left${delimiter(beg)}${inner}\\right${delimiter(end)}`;
    }
    case 'func': {
      const name = arg(el, 'fName').trim();
      const fn = FUNCTIONS.has(name) ? `\\${name}` : name;
      return `${fn}${arg(el, 'e')}`;
    }
    case 'limLow':
      return `${arg(el, 'e')}_${group(arg(el, 'lim'))}`;
    case 'limUpp':
      return `${arg(el, 'e')}^${group(arg(el, 'lim'))}`;
    case 'acc': {
      const chr = prop(el, 'accPr', 'chr') ?? '\u0302';
      return `${ACCENTS[chr] ?? '\\hat'}${group(arg(el, 'e'))}`;
    }
    case 'bar':
      return prop(el, 'barPr', 'pos') === 'bot'
        ? `\\underline${group(arg(el, 'e'))}`
        : `\\overline${group(arg(el, 'e'))}`;
    case 'groupChr': {
      const top = prop(el, 'groupChrPr', 'pos') === 'top';
      return `${top ? '\\overbrace' : '\\underbrace'}${group(arg(el, 'e'))}`;
    }
    case 'eqArr': {
      const rows = children(el, 'e').map(seq);
      if (rows.length === 1) return rows[0]!;
      return `\\begin{array}{l}${children(el, 'e').map(seq).join(' \\\\ ')}\\end{array}`;
    }
    case 'm':
      return `\\begin{matrix}${children(el, 'mr')
        .map((row) => children(row, 'e').map(seq).join(' & '))
        .join(' \\\\ ')}\\end{matrix}`;
    case 'box':
    case 'borderBox':
    case 'phant':
    case 'e':
    case 'oMath':
      return seq(el);
    default:
      // Property elements (…Pr, ctrlPr) carry no text; anything unknown contributes its text runs.
      return el.localName?.endsWith('Pr') ? '' : seq(el);
  }
}

function runText(r: Element): string {
  const text = children(r, 't')
    .map((t) => t.textContent ?? '')
    .join('')
    .replace(/[\u2061-\u2064\u200b]/g, '');
  if (child(child(r, 'rPr'), 'nor')) return text.trim() ? `\\text{${text}}` : text;
  const word = text.trim();
  if (FUNCTIONS.has(word)) return `\\${word} `;
  let out = '';
  for (const ch of text) {
    const cmd = SYMBOLS[ch] ?? NARY[ch];
    out += cmd ? ` ${cmd} ` : ch === '{' || ch === '}' || ch === '%' || ch === '#' || ch === '&' ? `\\${ch}` : ch;
  }
  return out;
}

function delimiter(chr: string): string {
  if (chr === '') return '.';
  return DELIMITERS[chr] ?? chr;
}
