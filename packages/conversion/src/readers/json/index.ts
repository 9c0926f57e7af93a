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
      const lines = jsonLines(text);
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
