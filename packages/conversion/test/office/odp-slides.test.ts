import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
].join(' ');

/** An ODP whose one slide holds the given frames (`styles`: content.xml's automatic styles). */
function odp(frames: string, styles = ''): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
      'content.xml': strToU8(
        `<office:document-content ${NS}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:presentation>` +
          `<draw:page draw:name="page1">${frames}</draw:page>` +
          '</office:presentation></office:body></office:document-content>',
      ),
    }),
  );
}

/** A frame at (x, y) cm, w × h cm, of a presentation class (none: a plain text box) holding one paragraph. */
const frame = (cls: string, x: number, y: number, w: number, h: number, inner: string): string =>
  `<draw:frame ${cls ? `presentation:class="${cls}" ` : ''}svg:x="${x}cm" svg:y="${y}cm" svg:width="${w}cm" svg:height="${h}cm">` +
  `<draw:text-box><text:p>${inner}</text:p></draw:text-box></draw:frame>`;

describe('ODP slides', () => {
  it('When a slide carries a slide number, a footer and a date, then none of them is written on the slide', async () => {
    const input = odp(
      frame('title', 1, 0.5, 24, 2, 'Results') +
        frame('outline', 1, 3, 24, 9, 'Sales rose') +
        frame('page-number', 23, 13, 2, 0.8, '<text:page-number>&lt;number&gt;</text:page-number>') +
        frame('footer', 8, 13, 10, 0.8, 'Acme Confidential') +
        frame('date-time', 1, 13, 5, 0.8, '<text:date>27/11/2026</text:date>'),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Results\n\n- Sales rose\n');
  });

  it("When speaker notes are typed in a text box of their own on the notes page (the notes placeholder left empty), then they are the slide's notes", async () => {
    const input = odp(
      frame('title', 1, 0.5, 24, 2, 'Budget') +
        '<presentation:notes><draw:page-thumbnail presentation:class="page"/>' +
        frame('notes', 2, 13, 17, 13, '') +
        frame('', 3, 13, 15, 12, 'Mention the travel cuts first.') +
        frame('page-number', 10, 27, 2, 1, '<text:page-number>1</text:page-number>') +
        '</presentation:notes>',
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Budget\n\n### Notes\n\nMention the travel cuts first.\n');
  });

  it("When a numbered list on a slide starts at 4 by its list style (LibreOffice's ODP of a PowerPoint list), then it is numbered from 4", async () => {
    const styles =
      '<text:list-style style:name="L7"><text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1" text:start-value="4"/></text:list-style>';
    const item = (text: string): string => `<text:list-item><text:p>${text}</text:p></text:list-item>`;
    const list = `<text:list text:style-name="L7">${item('Close the lease')}${item('Hire two engineers')}</text:list>`;
    const input = odp(
      frame('title', 1, 0.5, 24, 2, 'Next steps') +
        `<draw:frame presentation:class="outline" svg:x="1cm" svg:y="3cm" svg:width="24cm" svg:height="9cm"><draw:text-box>${list}</draw:text-box></draw:frame>`,
      styles,
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Next steps\n\n4. Close the lease\n5. Hire two engineers\n');
  });

  it('When a text frame holds a listing in a monospaced face, then it is a code block with its indentation; monospaced prose stays prose', async () => {
    const styles =
      '<style:style style:name="T3" style:family="text"><style:text-properties style:font-name="Courier New" fo:font-family="\'Courier New\'"/></style:style>';
    const line = (text: string, indent = 0): string =>
      `<text:p><text:span text:style-name="T3">${indent ? `<text:s text:c="${indent}"/>` : ''}${text}</text:span></text:p>`;
    const shape = (x: number, y: number, inner: string): string =>
      `<draw:custom-shape svg:x="${x}cm" svg:y="${y}cm" svg:width="20cm" svg:height="4cm">${inner}</draw:custom-shape>`;
    const input = odp(
      frame('title', 1, 0.5, 24, 2, 'Recursion') +
        shape(1, 3, line('def square(x):') + line('return x * x', 4)) +
        shape(1, 8, line('Typed on a typewriter')),
      styles,
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Recursion\n\n```\ndef square(x):\n    return x * x\n```\n\nTyped on a typewriter\n');
  });
});
