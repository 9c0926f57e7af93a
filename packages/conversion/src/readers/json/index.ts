import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { decodeText } from '../shared/text-decoding';
import { documentOutput } from '../../writers/markdown';
import { assertJsonDepth } from '../shared/nesting-limits';

/** JSON: validated and pretty-printed in a fenced block, so nothing is lost or reinterpreted. */
export const jsonConverter: Converter = {
  name: 'json',
  extensions: ['json'],
  async convert(input) {
    const text = decodeText(input).trim();
    if (!text) return { markdown: '', metadata: { title: '', author: '', page_count: 1 } };
    assertJsonDepth(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ConversionError('corrupt_file', `The JSON file is not valid JSON: ${(err as Error).message}`);
    }
    const title = value && typeof value === 'object' && typeof (value as Record<string, unknown>).title === 'string';
    return documentOutput([{ type: 'code', language: 'json', text: JSON.stringify(value, null, 2) }], {
      title: title ? String((value as Record<string, unknown>).title) : '',
      author: '',
      page_count: 1,
    });
  },
};
