import { isNativeTesseractInstalled } from './native-tesseract';
import { isLanguageInstalled, SYSTEM_TESSDATA } from './scripts';

/**
 * Which Tesseract reads a page. `auto` (the default): Debian's native `tesseract` wherever it and
 * the language's traineddata are installed (about three times faster than the WebAssembly build,
 * as accurate: docs/performance.md), the tesseract.js WebAssembly engine otherwise. `wasm` keeps
 * the WebAssembly engine everywhere (to compare, or where spawning processes is not wanted).
 */
export const OCR_ENGINE_SETTINGS = ['auto', 'wasm'] as const;
export type OcrEngineSetting = (typeof OCR_ENGINE_SETTINGS)[number];

/** OCR_ENGINE from the environment; an unknown value is refused with a message naming the variable. */
export function ocrEngineSetting(): OcrEngineSetting {
  const value = process.env.OCR_ENGINE || 'auto';
  if (!(OCR_ENGINE_SETTINGS as readonly string[]).includes(value)) {
    throw new Error(`OCR_ENGINE must be one of ${OCR_ENGINE_SETTINGS.join(', ')} (got "${value}").`);
  }
  return value as OcrEngineSetting;
}

/** Whether `language` is read by the native engine. */
export function usesNativeEngine(language: string): boolean {
  if (ocrEngineSetting() === 'wasm') return false;
  return isNativeTesseractInstalled() && isLanguageInstalled(language, SYSTEM_TESSDATA);
}
