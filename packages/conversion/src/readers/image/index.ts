import exifr from 'exifr';
import type { Reader } from '../reader';
import { ocrImage } from '../shared/ocr/engine';
import { ocrBlocks } from '../shared/ocr/layout';

/** jpg, jpeg, png: text by OCR (paragraphs), title and author from EXIF/XMP when present. */
export const imageReader: Reader = {
  name: 'image',
  async read(input, options) {
    // Enhanced mode: layout analysis reads columns in order and rebuilds a table the image clearly holds.
    const blocks = await ocrBlocks(await ocrImage(input), options.enhanced);
    const tags = (await exifr.parse(input, { xmp: true, iptc: true }).catch(() => undefined)) as
      Record<string, unknown> | undefined;
    const pick = (...keys: string[]): string => {
      for (const key of keys) {
        const v = tags?.[key];
        const text =
          typeof v === 'string'
            ? v
            : v && typeof v === 'object' && 'value' in v
              ? String((v as { value: unknown }).value)
              : '';
        if (text.trim()) return text.trim();
      }
      return '';
    };
    return {
      blocks,
      metadata: {
        title: pick('title', 'XPTitle', 'ImageDescription', 'ObjectName'),
        author: pick('creator', 'Artist', 'XPAuthor', 'By-line'),
        page_count: 1,
      },
    };
  },
};
