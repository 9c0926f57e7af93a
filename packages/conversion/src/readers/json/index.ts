import type { Reader } from '../reader';
import { ConversionError } from '../../types';
import { decodeText } from '../shared/text-decoding';
import { assertJsonDepth } from '../shared/nesting-limits';

/** JSON: validated and pretty-printed in a fenced block, so nothing is lost or reinterpreted. */
export const jsonReader: Reader = {
  name: 'json',
  async read(input) {
    const text = decodeText(input).trim();
    if (!text) return { blocks: [], metadata: { title: '', author: '', page_count: 1 } };
    assertJsonDepth(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const lines = jsonLines(text) ?? jsonSequence(text);
      if (lines) return { blocks: [{ type: 'code', language: 'json', text: lines }], metadata: NO_METADATA };
      throw new ConversionError('corrupt_file', `The JSON file is not valid JSON: ${(err as Error).message}`);
    }
    const title = value && typeof value === 'object' && typeof (value as Record<string, unknown>).title === 'string';
    return {
      blocks: [{ type: 'code', language: 'json', text: JSON.stringify(value, null, 2) }],
      metadata: {
        title: title ? String((value as Record<string, unknown>).title) : '',
        author: '',
        page_count: 1,
      },
    };
  },
};

const NO_METADATA = { title: '', author: '', page_count: 1 };

/**
 * JSON Lines saved as .json (log exports, database dumps): one JSON value a line, two lines at
 * least. Kept as the lines are, each a complete record; undefined when any line is not JSON.
 */
function jsonLines(text: string): string | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 2) return undefined;
  for (const line of lines) {
    try {
      JSON.parse(line);
    } catch {
      return undefined;
    }
  }
  return lines.join('\n');
}

/**
 * Objects or arrays written one after another (pretty-printed records appended to one file, as
 * `jq` reads and writes them, and as job queues and exports save them): each pretty-printed, in
 * order; undefined unless the whole text is two or more such values and whitespace.
 */
function jsonSequence(text: string): string | undefined {
  const values: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      if (depth === 0) return undefined;
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth < 0) return undefined;
      if (depth === 0) values.push(text.slice(start, i + 1));
    } else if (depth === 0 && !/\s/.test(c)) {
      return undefined;
    }
  }
  if (depth !== 0 || values.length < 2) return undefined;
  try {
    return values.map((v) => JSON.stringify(JSON.parse(v), null, 2)).join('\n');
  } catch {
    return undefined;
  }
}
