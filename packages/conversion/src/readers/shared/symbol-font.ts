/**
 * The Symbol font's characters as Unicode (Adobe's Symbol encoding, which Windows' Symbol font
 * follows, with the euro at 0xA0): Greek letters and mathematical signs typed in that font, whose
 * codes are otherwise Latin letters and Latin-1 signs ("a" for α, "³" for ≥). Codes 0x20 to 0xFE;
 * the pieces of tall brackets and the radical extender have no character of their own here.
 */
const SYMBOL_FONT: Record<number, number> = {
  0x22: 0x2200, // ∀
  0x24: 0x2203, // ∃
  0x27: 0x220b, // ∋
  0x2a: 0x2217, // ∗
  0x2d: 0x2212, // −
  0x40: 0x2245, // ≅
  0x5c: 0x2234, // ∴
  0x5e: 0x22a5, // ⊥
  0x7e: 0x223c, // ∼
  0xa0: 0x20ac, // €
};
// Greek capitals and small letters, in the font's Latin order (A B C D … Z).
const GREEK_UPPER = 'ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ';
const GREEK_LOWER = 'αβχδεφγηιϕκλμνοπθρστυϖωξψζ';
for (let i = 0; i < 26; i++) {
  SYMBOL_FONT[0x41 + i] = GREEK_UPPER.codePointAt(i)!;
  SYMBOL_FONT[0x61 + i] = GREEK_LOWER.codePointAt(i)!;
}
// 0xA1 to 0xFE; a space marks a code without a character of its own.
const HIGH = 'ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓◊〈®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪ 〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭';
for (let i = 0; i < HIGH.length; i++) if (HIGH[i] !== ' ') SYMBOL_FONT[0xa1 + i] = HIGH.codePointAt(i)!;

/**
 * Wingdings' marks that documents type as text (bullets, boxes, check marks, arrows, a letterhead's
 * telephone and envelope, the smileys mail programs write), by code, after the published Wingdings-to-Unicode correspondence; its
 * other codes are pictures (hands, clocks, leaves) and stay out.
 */
const WINGDINGS: Record<number, number> = {
  0x28: 0x260e, // ☎
  0x2a: 0x2709, // ✉
  0x4a: 0x263a, // ☺
  0x4c: 0x2639, // ☹
  0x6c: 0x25cf, // ●
  0x6e: 0x25a0, // ■
  0x6f: 0x25a1, // □
  0x71: 0x2751, // ❑
  0x72: 0x2752, // ❒
  0x75: 0x25c6, // ◆
  0x76: 0x2756, // ❖
  0x77: 0x2b25, // ⬥
  0x9e: 0x00b7, // ·
  0x9f: 0x2022, // •
  0xa0: 0x25aa, // ▪
  0xa1: 0x25cb, // ○
  0xa7: 0x25aa, // ▪
  0xa8: 0x25fb, // ◻
  0xd8: 0x27a2, // ➢
  // Wide-headed arrows (the table has no character of their shape): the plain arrows they are.
  0xdf: 0x2190, // ←
  0xe0: 0x2192, // →
  0xe1: 0x2191, // ↑
  0xe2: 0x2193, // ↓
  0xe8: 0x2794, // ➔
  0xf0: 0x21e8, // ⇨
  0xfb: 0x2717, // ✗
  0xfc: 0x2713, // ✓
  0xfd: 0x2612, // ☒
  0xfe: 0x2611, // ☑
};

/** A font whose codes draw symbols, not the letters of their code page. */
export type SymbolFont = 'Symbol' | 'Wingdings';

/** The symbol font a font name is (Word and RTF name them so), if it is one. */
export function symbolFont(name: string | undefined): SymbolFont | undefined {
  const bare = (name ?? '').replace(/;\s*$/, '').trim().toLowerCase();
  return bare === 'symbol' ? 'Symbol' : bare === 'wingdings' ? 'Wingdings' : undefined;
}

/**
 * The character a code of a symbol font draws: a byte (0x20–0xFE) or the same in the private use
 * area where Word keeps symbol-font characters (0xF020–0xF0FE). ASCII signs the Symbol font shares
 * with Latin fonts (digits, brackets, "+") are themselves; undefined for a code it has no character for.
 */
export function symbolFontChar(code: number, font: SymbolFont = 'Symbol'): string | undefined {
  const byte = code >= 0xf020 && code <= 0xf0fe ? code - 0xf000 : code;
  if (byte < 0x20 || byte > 0xfe) return undefined;
  if (font === 'Wingdings') return WINGDINGS[byte] === undefined ? undefined : String.fromCodePoint(WINGDINGS[byte]);
  const mapped = SYMBOL_FONT[byte];
  if (mapped !== undefined) return String.fromCodePoint(mapped);
  return byte < 0x7f && byte !== 0x60 ? String.fromCharCode(byte) : undefined;
}

/**
 * Text typed in a symbol font, each code as the character the font draws: a Symbol code without one
 * is kept as typed, a Wingdings picture (a hand, a clock) left out, as its letter would be garbage.
 */
export function inSymbolFont(text: string, font: SymbolFont = 'Symbol'): string {
  let out = '';
  for (const ch of text) {
    const drawn = symbolFontChar(ch.codePointAt(0)!, font);
    out += drawn ?? (font === 'Symbol' || /\s/.test(ch) ? ch : '');
  }
  return out;
}
