import exifr from 'exifr';
import type { Reader } from '../reader';
import { ocrImage } from '../shared/ocr/engine';
import { ocrBlocks } from '../shared/ocr/layout';
import { withWordBoxes } from '../shared/ocr/word-boxes';

/** jpg, jpeg, png: text by OCR (paragraphs), title and author from EXIF/XMP when present. */
export const imageReader: Reader = {
  name: 'image',
  async read(input, options) {
    // Enhanced mode: layout analysis reads columns in order and rebuilds a table the image clearly holds.
    const result = await ocrImage(input);
    // Boxes in the image's own pixels (E4), page 1: OCR read an upscaled copy.
    const size = result.image.source ?? { width: result.image.width, height: result.image.height };
    const blocks = withWordBoxes(
      await ocrBlocks(result, options.enhanced),
      result.words,
      size.width / result.image.width,
      size.height / result.image.height,
    ).map((b) => ({ ...b, page: 1 }));
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
      pages: [1],
      pageSizes: [{ number: 1, ...size }],
    };
  },
};
