import type { Converter } from '../../types';
import { ooxmlProperties } from '../../office-properties';
import { renderMarkdown } from '../../markdown/writer';
import { openDocx } from './parts';
import { DocxReader } from './body';

/**
 * DOCX: WordprocessingML read directly (xmldom) rather than through mammoth, because mammoth drops
 * what a faithful Markdown needs: list and heading numbering labels, OMML equations, merged-cell
 * grids and comment text. Styles, numbering.xml, notes and comments are resolved here.
 */
export const docxConverter: Converter = {
  name: 'docx',
  extensions: ['docx'],
  async convert(input) {
    const { zip, pkg } = openDocx(input);
    const blocks = new DocxReader(pkg).read();
    const props = ooxmlProperties(zip);
    return {
      markdown: renderMarkdown(blocks),
      metadata: { title: props.title, author: props.author, page_count: props.pages ?? 0 },
    };
  },
};
