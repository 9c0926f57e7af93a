/**
 * NUL and the other C0 controls but tab and line breaks, and DEL: no reader of Markdown wants
 * them, and PostgreSQL cannot store NUL. The converted document's text never holds them.
 */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');

/** `text` without its control characters (CONTROL_CHARACTER). */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}
