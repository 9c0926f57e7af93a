import fs from 'node:fs';
import path from 'node:path';

/** Tesseract's own variable names the folder of system traineddata (Debian's tesseract-ocr-* packages). */
export const SYSTEM_TESSDATA = process.env.TESSDATA_PREFIX ?? '/usr/share/tesseract-ocr/5/tessdata';

/** Tesseract language names used by the OCR engine. */
export const ENGLISH = 'eng';
export const SCRIPT_DETECTOR = 'osd';

/**
 * Hangul boxes closer than this share of the line height are syllables of one word (the native
 * engine's line boxes hug the glyphs: gaps inside a word measure up to 0.42, between words 0.55+).
 */
export const SYLLABLE_GAP = 0.45;
/** The script detector's confidence below which its answer is asked again on a larger image. */
export const MIN_SCRIPT_CONFIDENCE = 0.3;

/**
 * The script Tesseract's detector names → the languages to read it with, best first; the first one
 * whose traineddata is installed is used (Debian's tesseract-ocr-* packages, see scripts/setup-system.sh).
 */
const SCRIPT_LANGUAGES: Record<string, string[]> = {
  Han: ['chi_sim', 'chi_tra'],
  Japanese: ['jpn'],
  Katakana: ['jpn'],
  Hiragana: ['jpn'],
  Korean: ['kor'],
  Hangul: ['kor'],
  Cyrillic: ['rus', 'ukr'],
  Arabic: ['ara'],
  Hebrew: ['heb'],
  Greek: ['ell'],
  Devanagari: ['hin'],
  Thai: ['tha'],
};

/** The first installed language for a detected script. */
export function languageForScript(script: string, tessdata: string): string | undefined {
  return (SCRIPT_LANGUAGES[script] ?? []).find((language) => isInstalled(language, tessdata));
}

/** Other languages a script is also read in: Han is simplified or traditional Chinese, which the detector can't tell apart. */
const ALTERNATIVES: Record<string, string[]> = { Han: ['chi_sim', 'chi_tra'] };

/** The installed alternatives to `language` for a detected script. */
export function alternativesFor(script: string, language: string, tessdata: string): string[] {
  return (ALTERNATIVES[script] ?? []).filter((l) => l !== language && isInstalled(l, tessdata));
}

/** Whether the traineddata of a language is in the folder. */
export function isLanguageInstalled(language: string, tessdata: string): boolean {
  return isInstalled(language, tessdata);
}

/** The model for the same language written top to bottom (Chinese, Japanese, Korean), when installed. */
export function verticalVariant(language: string, tessdata: string): string | undefined {
  const vertical = `${language}_vert`;
  return isInstalled(vertical, tessdata) ? vertical : undefined;
}

const installed = new Map<string, boolean>();
function isInstalled(language: string, tessdata: string): boolean {
  const file = path.join(tessdata, `${language}.traineddata`);
  let known = installed.get(file);
  if (known === undefined) {
    known = fs.existsSync(file);
    installed.set(file, known);
  }
  return known;
}

export function isScriptDetectorInstalled(tessdata: string): boolean {
  return isInstalled(SCRIPT_DETECTOR, tessdata);
}

export function isVertical(language: string): boolean {
  return language.endsWith('_vert');
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

const HANGUL = /\p{Script=Hangul}/u;

export function isHangulPair(before: string, after: string): boolean {
  return HANGUL.test(before.slice(-1)) && HANGUL.test(after.slice(0, 1));
}

/** Chinese and Japanese are written without spaces between words. */
export function joinsWithoutSpace(before: string, after: string): boolean {
  return CJK.test(before.slice(-1)) && CJK.test(after.slice(0, 1));
}
