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
