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

/** Whether a font name is the Symbol font's (Word and RTF name it so). */
export function isSymbolFont(name: string | undefined): boolean {
  return /^\s*symbol\s*;?\s*$/i.test(name ?? '');
}

/**
 * The character a code of the Symbol font draws: a byte (0x20–0xFE) or the same in the private
 * use area where Word keeps symbol-font characters (0xF020–0xF0FE). ASCII signs it shares with
 * Latin fonts (digits, brackets, "+") are themselves; undefined for a code it has no character for.
 */
export function symbolFontChar(code: number): string | undefined {
  const byte = code >= 0xf020 && code <= 0xf0fe ? code - 0xf000 : code;
  if (byte < 0x20 || byte > 0xfe) return undefined;
  const mapped = SYMBOL_FONT[byte];
  if (mapped !== undefined) return String.fromCodePoint(mapped);
  return byte < 0x7f && byte !== 0x60 ? String.fromCharCode(byte) : undefined;
}

/** Text typed in the Symbol font, each code as the character the font draws (kept when it draws none). */
export function inSymbolFont(text: string): string {
  let out = '';
  for (const ch of text) out += symbolFontChar(ch.codePointAt(0)!) ?? ch;
  return out;
}
