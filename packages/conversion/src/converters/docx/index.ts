import mammoth from 'mammoth';
import type { Converter } from '../../types';
import { ConversionError } from '../../types';
import { SafeZip } from '../../archive/safe-zip';
import { ooxmlProperties } from '../../office-properties';
import { htmlToMarkdown } from '../html';
import { ocrImage } from '../../ocr/engine';

/** Word styles mammoth does not map by default, so headings, titles and quotes keep their structure. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  "p[style-name='Heading 1'] => h1:fresh",
  "p[style-name='Heading 2'] => h2:fresh",
  "p[style-name='Heading 3'] => h3:fresh",
  "p[style-name='Heading 4'] => h4:fresh",
  "p[style-name='Heading 5'] => h5:fresh",
  "p[style-name='Heading 6'] => h6:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  "p[style-name='Code'] => pre:separator('\\n')",
  "r[style-name='Code'] => code",
  "p[style-name='Source Code'] => pre:separator('\\n')",
  'comment-reference => sup',
];

/** DOCX: mammoth reads the document model (styles, numbering, tables, notes, comments); one HTML→Markdown pass writes it. */
export const docxConverter: Converter = {
  name: 'docx',
  extensions: ['docx'],
  async convert(input, options) {
    const zip = new SafeZip(input, 'DOCX file');
    if (zip.has('EncryptedPackage') || !zip.has('word/document.xml')) {
      throw new ConversionError(
        zip.has('EncryptedPackage') ? 'encrypted_file' : 'corrupt_file',
        zip.has('EncryptedPackage')
          ? 'The DOCX file is password-protected; remove the password and try again.'
          : 'The DOCX file has no document part (word/document.xml).',
      );
    }
    const { value: html } = await mammoth.convertToHtml(
      { buffer: input },
      {
        styleMap: STYLE_MAP,
        includeDefaultStyleMap: true,
        convertImage: mammoth.images.imgElement(async (image) => {
          const alt = (image as { altText?: string }).altText ?? 'image';
          // Enhanced mode reads the text inside pictures (scanned inserts, screenshots, charts).
          if (!options.enhanced) return { src: '#', alt };
          const text = await ocrImage(await image.read())
            .then((r) => r.paragraphs.join(' '))
            .catch(() => '');
          return { src: '#', alt: text ? `${alt}: ${text}` : alt };
        }),
      },
    );
    const props = ooxmlProperties(zip);
    return {
      markdown: htmlToMarkdown(html),
      metadata: { title: props.title, author: props.author, page_count: props.pages ?? 0 },
    };
  },
};
