import { strToU8, zipSync } from 'fflate';
import { convertDocument } from '../../src';

const std = { enhanced: false };
const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"';

/** `common` is styles.xml's office:styles, `stylesAutomatic` its own automatic styles (for headers and footers). */
function odt(body: string, styles = '', meta = '', common = '', stylesAutomatic = ''): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.text'),
      'styles.xml': strToU8(
        `<office:document-styles ${NS}><office:styles>${common}</office:styles><office:automatic-styles>${stylesAutomatic}</office:automatic-styles></office:document-styles>`,
      ),
      'content.xml': strToU8(
        `<office:document-content ${NS}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      ),
      'meta.xml': strToU8(`<office:document-meta ${NS}><office:meta>${meta}</office:meta></office:document-meta>`),
    }),
  );
}

const cell = (inner: string) => `<table:table-cell>${inner}</table:table-cell>`;
const row = (...cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;

describe('ODT', () => {
  it('When paragraphs are in styles whose names do not say heading but whose display names do (AbiWord: "heading-1" shown as "heading 1"), then they are headings', async () => {
    const input = odt(
      '<text:p text:style-name="P1">Harbour Notes</text:p><text:p text:style-name="heading-2">Second Page</text:p><text:p>Text.</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="heading-1"/>',
      '',
      '<style:style style:name="heading-1" style:display-name="heading 1" style:family="paragraph"/>' +
        '<style:style style:name="heading-2" style:display-name="heading 2" style:family="paragraph"/>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# Harbour Notes\n\n## Second Page\n\nText.\n');
  });

  it('When a span sets only the line-through type (AbiWord writes no line-through style), then it is struck through; a style of none still wins', async () => {
    const input = odt(
      '<text:p>A <text:span text:style-name="T1">gone</text:span> and <text:span text:style-name="T2">kept</text:span> word.</text:p>',
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-line-through-type="single"/></style:style>' +
        '<style:style style:name="T2" style:family="text"><style:text-properties style:text-line-through-type="single" style:text-line-through-style="none"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('A ~~gone~~ and kept word.\n');
  });

  it('When a heading is bold all through by a span (AbiWord), then the heading carries no emphasis', async () => {
    const input = odt(
      '<text:h text:outline-level="1"><text:span text:style-name="T1">Harbour Notes</text:span></text:h>',
      '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# Harbour Notes\n');
  });

  it("When paragraphs are in LibreOffice's Quotations style, directly or through a derived style, then they are block quotes", async () => {
    const input = odt(
      '<text:p text:style-name="Standard">The mayor said:</text:p>' +
        '<text:p text:style-name="Quotations">It is the busiest crossing in the city.</text:p>' +
        '<text:p text:style-name="P2">And now the safest.</text:p>',
      '<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Quotations"/>',
      '',
      '<style:style style:name="Quotations" style:family="paragraph"/>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('The mayor said:\n\n> It is the busiest crossing in the city.\n\n> And now the safest.\n');
  });

  it('When plain paragraphs are in heading styles with localised names, then they are headings of their number', async () => {
    const input = odt(
      '<text:p text:style-name="Titre_20_2">Méthode</text:p><text:p text:style-name="P1">Ablauf</text:p>' +
        '<text:p text:style-name="Standard">Text.</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Überschrift_20_3"/>',
      '',
      '<style:style style:name="Titre_20_2" style:display-name="Titre 2" style:family="paragraph"/>' +
        '<style:style style:name="Überschrift_20_3" style:display-name="Überschrift 3" style:family="paragraph"/>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('## Méthode\n\n### Ablauf\n\nText.\n');
  });

  it('When plain paragraphs are in the Heading 1 and Heading 2 styles (a docx-library file through LibreOffice), then they are headings of those levels', async () => {
    const input = odt(
      '<text:p text:style-name="Heading_20_1"><text:bookmark-start text:name="_Toc1"/>Parties<text:bookmark-end text:name="_Toc1"/></text:p>' +
        '<text:p text:style-name="Standard">The supplier and the client.</text:p>' +
        '<text:p text:style-name="P1">Fees</text:p><text:p text:style-name="Heading_20_10">Not a level</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_2"/>',
      '',
      '<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>' +
        '<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# Parties\n\nThe supplier and the client.\n\n## Fees\n\nNot a level\n');
  });

  it('When table cells hold lists and a nested table, then each cell stays one line with markers and nested cells', async () => {
    const input = odt(
      '<table:table>' +
        row(cell('<text:p>Column A</text:p>'), cell('<text:p>Column B</text:p>')) +
        row(
          cell(
            '<text:p>Intro:</text:p><text:list><text:list-item><text:p>one</text:p></text:list-item><text:list-item><text:p>two</text:p></text:list-item></text:list>',
          ),
          cell('<table:table>' + row(cell('<text:p>x</text:p>'), cell('<text:p>y</text:p>')) + '</table:table>'),
        ) +
        '</table:table>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('| Column A | Column B |\n| --- | --- |\n| Intro: - one - two | x y |\n');
  });

  it("When a comment is anchored in a heading and a shape with an SVG title sits in a paragraph, then the comment is a note and only the shape's own text shows, after the paragraph", async () => {
    const DRAW =
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
    const input = odt(
      '<text:h text:outline-level="1">Quarterly <office:annotation><dc:creator>Ann Lee</dc:creator><dc:date>2026-01-05T10:00:00</dc:date>' +
        '<text:p>Check the figures.</text:p></office:annotation>Review<office:annotation-end/></text:h>' +
        '<text:p>Sales rose.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>In euros.</text:p></text:note-body></text:note></text:p>' +
        `<text:p><draw:custom-shape ${DRAW} draw:name="Box"><svg:title>Box title</svg:title><svg:desc>A blue box with a border</svg:desc>` +
        '<text:p>Inside the box</text:p></draw:custom-shape>After the box.</text:p>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '# Quarterly [^c1]Review\n\nSales rose.[^1]\n\nAfter the box.\n\nInside the box\n\n' +
        '[^c1]: Comment by Ann Lee: Check the figures.\n\n[^1]: In euros.\n',
    );
  });

  it('When a text box and a shape with paragraphs are anchored in a paragraph (a sidebar), then their paragraphs follow it as paragraphs of their own', async () => {
    const DRAW = 'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"';
    const input = odt(
      `<text:p>Planting starts in April.<draw:frame ${DRAW} draw:name="Sidebar"><draw:text-box>` +
        '<text:p>Opening hours</text:p><text:p>Saturday 9:00 to 13:00</text:p></draw:text-box></draw:frame> Bring gloves.</text:p>' +
        `<text:p><draw:custom-shape ${DRAW}><text:p>Tool shed</text:p><draw:enhanced-geometry/></draw:custom-shape></text:p>` +
        '<text:p>Seedlings are shared by lot.</text:p>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'Planting starts in April. Bring gloves.\n\nOpening hours\n\nSaturday 9:00 to 13:00\n\nTool shed\n\nSeedlings are shared by lot.\n',
    );
  });

  it('When a text box anchored in a paragraph holds only a table (a positioned Word table, through LibreOffice), then the table follows the paragraph as a table', async () => {
    const DRAW = 'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"';
    const input = odt(
      '<text:h text:outline-level="1">Statement of Work</text:h>' +
        `<text:p><draw:frame ${DRAW} draw:name="Frame1"><draw:text-box><table:table>` +
        row(cell('<text:p>Phase</text:p>'), cell('<text:p>Weeks</text:p>')) +
        row(cell('<text:p>Design</text:p>'), cell('<text:p>4</text:p>')) +
        '</table:table></draw:text-box></draw:frame></text:p><text:p>Signed below.</text:p>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# Statement of Work\n\n| Phase | Weeks |\n| --- | --- |\n| Design | 4 |\n\nSigned below.\n');
  });

  it('When a LibreOffice Math formula object stands alone in a paragraph and another sits in a line, then both are TeX, the first displayed', async () => {
    const DRAW =
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
    const formula = (name: string) =>
      `<draw:frame ${DRAW} draw:name="${name}" text:anchor-type="as-char"><draw:object xlink:href="./${name}"/>` +
      `<draw:image xlink:href="./ObjectReplacements/${name}"/></draw:frame>`;
    const math = (body: string) =>
      strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">` +
          `<semantics>${body}<annotation encoding="StarMath 5.0">x</annotation></semantics></math>`,
      );
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.text'),
        'content.xml': strToU8(
          `<office:document-content ${NS}><office:body><office:text>` +
            `<text:p>The cooling law:</text:p><text:p>${formula('Object 1')}</text:p>` +
            `<text:p>where ${formula('Object 2')} is the room temperature.</text:p></office:text></office:body></office:document-content>`,
        ),
        'Object 1/content.xml': math(
          '<mrow><msub><mi>T</mi><mi>a</mi></msub><mo>+</mo><mfrac><mn>1</mn><mi>k</mi></mfrac></mrow>',
        ),
        'Object 2/content.xml': math('<msub><mi>T</mi><mi>a</mi></msub>'),
      }),
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('The cooling law:\n\n$$T_a+\\frac1k$$\n\nwhere $T_a$ is the room temperature.\n');
  });

  it('When Word headings numbered by a list come through LibreOffice (each heading a list of its own, numbering continued), then they are headings with their numbers', async () => {
    const styles =
      '<text:list-style style:name="WWNum9"><text:list-level-style-number text:level="1" style:num-format="1"/>' +
      '<text:list-level-style-number text:level="2" style:num-format="1" text:display-levels="2"/></text:list-style>';
    const heading = (level: number, text: string, continued: boolean) => {
      const h = `<text:h text:outline-level="${level}">${text}</text:h>`;
      const item = level === 1 ? h : `<text:list><text:list-item>${h}</text:list-item></text:list>`;
      return `<text:list text:style-name="WWNum9"${continued ? ' text:continue-numbering="true"' : ''}><text:list-item>${item}</text:list-item></text:list>`;
    };
    const input = odt(
      heading(1, 'Introduction', false) +
        '<text:p>Plan.</text:p>' +
        heading(2, 'Scope', true) +
        heading(2, 'Timeline', true) +
        heading(1, 'Risks', true) +
        '<text:p>Data loss.</text:p>',
      styles,
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# 1 Introduction\n\nPlan.\n\n## 1.1 Scope\n\n## 1.2 Timeline\n\n# 2 Risks\n\nData loss.\n');
  });

  it("When a Word form's check boxes come through LibreOffice (field:fieldmark FORMCHECKBOX), then each shows its state as ☒ or ☐", async () => {
    const FIELD = 'xmlns:field="urn:openoffice:names:experimental:ooo-ms-interop:xmlns:field:1.0"';
    const box = (param: string, label: string) =>
      `<text:p><field:fieldmark ${FIELD} text:name="Check1" field:type="vnd.oasis.opendocument.field.FORMCHECKBOX">${param}</field:fieldmark><text:s/>${label}</text:p>`;
    const input = odt(
      box(`<field:param ${FIELD} field:name="Checkbox_Checked" field:value="true"/>`, 'Weekend shifts') +
        box('', 'Driving'),
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('☒ Weekend shifts\n\n☐ Driving\n');
  });

  it('When a comment names the end of the text it is on, then its note mark stands at that end', async () => {
    const input = odt(
      '<text:p><office:annotation office:name="__Annotation__1"><dc:creator>Mia Chen</dc:creator><text:p>Check the month.</text:p></office:annotation>' +
        'Acme opens a warehouse in June.<office:annotation-end office:name="__Annotation__1"/> It will employ 120 people.</text:p>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'Acme opens a warehouse in June.[^c1] It will employ 120 people.\n\n[^c1]: Comment by Mia Chen: Check the month.\n',
    );
  });

  it('When a document has a table of contents, then its entries are kept as the file shows them, without links to its own headings', async () => {
    const input = odt(
      '<text:table-of-content text:name="Table of Contents1"><text:table-of-content-source text:outline-level="3">' +
        '<text:index-title-template>Contents</text:index-title-template></text:table-of-content-source><text:index-body>' +
        '<text:index-title text:name="Table of Contents1_Head"><text:p text:style-name="Contents_20_Heading">Contents</text:p></text:index-title>' +
        '<text:p text:style-name="Contents_20_1"><text:a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#__RefHeading___Toc1">Introduction<text:tab/>2</text:a></text:p>' +
        '<text:p text:style-name="Contents_20_2"><text:a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#__RefHeading___Toc2">Near misses<text:tab/>3</text:a></text:p>' +
        '</text:index-body></text:table-of-content>' +
        '<text:h text:outline-level="1">Introduction</text:h><text:p>This review covers the year.</text:p>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'Contents\n\nIntroduction 2\n\nNear misses 3\n\n# Introduction\n\nThis review covers the year.\n',
    );
  });

  it('When a cell spans two rows beside a plain cell (a Word table merged vertically, through LibreOffice), then the covered cell takes the spanning text, not its left neighbour', async () => {
    const input = odt(
      '<table:table>' +
        row(cell('<text:p>Phase</text:p>'), cell('<text:p>Window</text:p>'), cell('<text:p>Owner</text:p>')) +
        row(
          cell('<text:p>Export</text:p>'),
          cell('<text:p>Saturday 02:00</text:p>'),
          '<table:table-cell table:number-rows-spanned="2"><text:p>Dana Reyes</text:p></table:table-cell>',
        ) +
        row(cell('<text:p>Import</text:p>'), cell('<text:p>Saturday 05:00</text:p>'), '<table:covered-table-cell/>') +
        row(
          '<table:table-cell table:number-columns-spanned="2"><text:p>Verify</text:p></table:table-cell>',
          '<table:covered-table-cell/>',
          cell('<text:p>Lee Park</text:p>'),
        ) +
        '</table:table>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '| Phase | Window | Owner |\n| --- | --- | --- |\n| Export | Saturday 02:00 | Dana Reyes |\n' +
        '| Import | Saturday 05:00 | Dana Reyes |\n| Verify | Verify | Lee Park |\n',
    );
  });

  it("When spans are in a code character style (LibreOffice's Source_20_Text, pandoc's Source_Text, through a parent too), then they are inline code with their spaces", async () => {
    const input = odt(
      '<text:p>Run <text:span text:style-name="Source_20_Text">fixctl<text:s text:c="2"/>--audit</text:span> or ' +
        '<text:span text:style-name="Source_Text">make all</text:span>, then <text:span text:style-name="T1">ls</text:span> ' +
        'and <text:span text:style-name="Emphasis">read</text:span>.</text:p>',
      '<style:style style:name="T1" style:family="text" style:parent-style-name="Verbatim_20_Char"/>',
      '',
      '<style:style style:name="Source_20_Text" style:display-name="Source Text" style:family="text"/>' +
        '<style:style style:name="Source_Text" style:display-name="Source Text" style:family="text"/>' +
        '<style:style style:name="Verbatim_20_Char" style:display-name="Verbatim Char" style:family="text"/>' +
        '<style:style style:name="Emphasis" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('Run `fixctl  --audit` or `make all`, then `ls` and *read*.\n');
  });

  it('When a numbered list goes on after another list (continue-list, continue-numbering, a start value), then its numbers go on too', async () => {
    const item = (t: string) => `<text:list-item><text:p>${t}</text:p></text:list-item>`;
    const input = odt(
      '<text:list xml:id="a" text:style-name="N">' +
        item('Stop') +
        item('Export') +
        '</text:list>' +
        '<text:list text:style-name="B">' +
        item('Check') +
        '</text:list>' +
        '<text:list text:continue-list="a" text:style-name="N">' +
        item('Import') +
        '</text:list>' +
        '<text:p>Then:</text:p><text:list text:continue-numbering="true" text:style-name="N">' +
        item('Verify') +
        '</text:list>' +
        '<text:list text:style-name="N"><text:list-item text:start-value="7"><text:p>Seven</text:p></text:list-item></text:list>' +
        '<text:list text:style-name="N">' +
        item('Anew') +
        '</text:list>',
      '<text:list-style style:name="N"><text:list-level-style-number text:level="1"/></text:list-style>' +
        '<text:list-style style:name="B"><text:list-level-style-bullet text:level="1"/></text:list-style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('1. Stop\n2. Export\n\n- Check\n\n3. Import\n\nThen:\n\n4. Verify\n\n7. Seven\n\n1. Anew\n');
  });

  it('When a list opens with a list header (an unnumbered entry), then the header is a paragraph before the list and the items are numbered from 1, continued lists counting items only', async () => {
    const item = (t: string) => `<text:list-item><text:p>${t}</text:p></text:list-item>`;
    const input = odt(
      '<text:list xml:id="a" text:style-name="N"><text:list-header><text:p>Steps (unnumbered)</text:p></text:list-header>' +
        item('Stop') +
        item('Export') +
        '</text:list><text:p>Then:</text:p>' +
        '<text:list text:continue-list="a" text:style-name="N"><text:list-header><text:p>More steps</text:p></text:list-header>' +
        item('Import') +
        '</text:list>' +
        '<text:list text:style-name="B">' +
        item('Parts') +
        '<text:list-item><text:list><text:list-header><text:p>Listed below</text:p></text:list-header>' +
        item('Bolt') +
        '</text:list></text:list-item></text:list>',
      '<text:list-style style:name="N"><text:list-level-style-number text:level="1"/></text:list-style>' +
        '<text:list-style style:name="B"><text:list-level-style-bullet text:level="1"/><text:list-level-style-bullet text:level="2"/></text:list-style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'Steps (unnumbered)\n\n1. Stop\n2. Export\n\nThen:\n\nMore steps\n\n3. Import\n\n- Parts\n\n  Listed below\n\n  - Bolt\n',
    );
  });

  it('When paragraphs are all in a monospaced font (spans or their paragraph style), then those reading like code are a code block with the short lines beside them, and a monospaced sentence stays prose', async () => {
    const span = (style: string, text: string) =>
      `<text:p><text:span text:style-name="${style}">${text}</text:span></text:p>`;
    const input = odt(
      span('T3', '#!/bin/sh') +
        span('T3', 'for db in $(list); do') +
        '<text:p text:style-name="P1"><text:s text:c="2"/>dump "$db"</text:p>' +
        span('T3', 'done') +
        span('T2', 'A note set in a typewriter face.') +
        span('T2', 'done') +
        '<text:p>Prose with <text:span text:style-name="T3">x = 1;</text:span> inside.</text:p>',
      '<style:style style:name="T2" style:family="text"><style:text-properties style:font-name="Courier New"/></style:style>' +
        '<style:style style:name="T3" style:family="text" style:parent-style-name="Mono"/>' +
        '<style:style style:name="P1" style:family="paragraph"><style:text-properties fo:font-family="\'Liberation Mono\'"/></style:style>',
      '',
      '<style:style style:name="Mono" style:family="text"><style:text-properties style:font-name="Consolas"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '```\n#!/bin/sh\nfor db in $(list); do\n  dump "$db"\ndone\n```\n\nA note set in a typewriter face.\n\ndone\n\nProse with x = 1; inside.\n',
    );
  });

  it("When paragraphs are in LibreOffice's List Heading / List Contents styles (an HTML definition list) or pandoc's Definition Term / Definition Tight styles, then each term is a bold item with its definitions under it", async () => {
    const input = odt(
      '<text:p text:style-name="List_20_Heading">Boiler </text:p><text:p text:style-name="P1">A closed vessel.</text:p>' +
        '<text:p text:style-name="List_20_Heading">Damper</text:p><text:p text:style-name="List_20_Contents">A plate.</text:p>' +
        '<text:p>After.</text:p>' +
        '<text:p text:style-name="Definition_20_Term_20_Tight">Valve</text:p>' +
        '<text:p text:style-name="Definition_20_Definition_20_Tight">Controls flow.</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="List_20_Contents"/>',
      '',
      '<style:style style:name="List_20_Heading" style:display-name="List Heading" style:family="paragraph"/>' +
        '<style:style style:name="List_20_Contents" style:display-name="List Contents" style:family="paragraph"/>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '- **Boiler**\n  - A closed vessel.\n- **Damper**\n  - A plate.\n\nAfter.\n\n- **Valve**\n  - Controls flow.\n',
    );
  });

  it('When a paragraph has a line break, then it is a hard line break, and a tab is a space', async () => {
    const input = odt('<text:p>port = 8080<text:line-break/>mode = standalone</text:p><text:p>a<text:tab/>b</text:p>');
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('port = 8080\\\nmode = standalone\n\na b\n');
  });

  it('When paragraphs have a code style (directly or through a parent), then each run of them is one code block, blank lines kept', async () => {
    const input = odt(
      '<text:p>Set:</text:p>' +
        '<text:p text:style-name="P1">if (a) {</text:p><text:p text:style-name="P1"/>' +
        '<text:p text:style-name="Source_20_Code"><text:s text:c="2"/>run();<text:line-break/>}</text:p>' +
        '<text:p>Done.</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('Set:\n\n```\nif (a) {\n\n  run();\n}\n```\n\nDone.\n');
  });

  it('When spans are bold, italic or struck through by automatic styles, then the emphasis is kept', async () => {
    const input = odt(
      '<text:p>A <text:span text:style-name="T1">gone</text:span> and <text:span text:style-name="T2">slanted</text:span> word, ünïcödé.</text:p>',
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-line-through-style="solid"/></style:style>' +
        '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('A ~~gone~~ and *slanted* word, ünïcödé.\n');
  });

  it('When spans are raised or lowered by keyword or percentage, then <sup>/<sub> are kept; 0% is the baseline and a note inside a raised span stays a reference', async () => {
    const style = (name: string, position: string, extra = '') =>
      `<style:style style:name="${name}" style:family="text"><style:text-properties style:text-position="${position}"${extra}/></style:style>`;
    const input = odt(
      '<text:p>x<text:span text:style-name="Up">2</text:span>, H<text:span text:style-name="Down">2</text:span>O, ' +
        'e<text:span text:style-name="Pct">iπ</text:span>, C<text:span text:style-name="Neg">n</text:span>, ' +
        'm<text:span text:style-name="BoldUp">3</text:span>, <text:span text:style-name="Zero">flat</text:span>' +
        '<text:span text:style-name="Up"><text:note text:note-class="footnote"><text:note-body><text:p>Note</text:p></text:note-body></text:note></text:span>.</text:p>' +
        '<table:table>' +
        row(cell('<text:p>Gas</text:p>')) +
        row(cell('<text:p>CO<text:span text:style-name="Down">2</text:span></text:p>')) +
        '</table:table>',
      style('Up', 'super 58%') +
        style('Down', 'sub 58%') +
        style('Pct', '33% 58%') +
        style('Neg', '-33% 58%') +
        style('BoldUp', 'super 58%', ' fo:font-weight="bold"') +
        style('Zero', '0% 100%'),
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'x<sup>2</sup>, H<sub>2</sub>O, e<sup>iπ</sup>, C<sub>n</sub>, m**<sup>3</sup>**, flat[^1].\n\n| Gas |\n| --- |\n| CO<sub>2</sub> |\n\n[^1]: Note\n',
    );
  });

  it('When the document has no text, then the Markdown is empty and the page count comes from meta.xml', async () => {
    const input = odt('', '', '<meta:document-statistic meta:page-count="1"/>');
    const { markdown, metadata } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('');
    expect(metadata).toEqual({ title: '', author: '', page_count: 1 });
  });

  it("When content.xml's automatic styles hold a data style (a date field's number:text), then the body after them is still read", async () => {
    const input = odt(
      '<text:p>Signed on <text:date style:data-style-name="N1">07.03.2013</text:date>.</text:p>',
      '<number:date-style style:name="N1"><number:day/><number:text>.</number:text><number:month/><number:text>.</number:text><number:year/></number:date-style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('Signed on 07.03.2013.\n');
  });

  it('When a list opens with an item holding only a nested list (a Word list whose levels use different list styles, through LibreOffice), then its items nest under the last item of the list before it', async () => {
    const item = (inner: string) => `<text:list-item>${inner}</text:list-item>`;
    const p = (text: string) => `<text:p>${text}</text:p>`;
    const input = odt(
      `<text:list text:style-name="L1">${item(p('Fruit'))}</text:list>` +
        `<text:list text:style-name="L2">${item(`<text:list>${item(p('Apples'))}${item(p('Pears'))}</text:list>`)}</text:list>` +
        `<text:list text:style-name="L2">${item(`<text:list>${item(`<text:list>${item(p('Conference'))}</text:list>`)}</text:list>`)}${item(p('Vegetables'))}</text:list>`,
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('- Fruit\n  - Apples\n  - Pears\n    - Conference\n- Vegetables\n');
  });

  it('When a numbered list continues no other list and its list style starts at 5 (a Word list restarted, through LibreOffice), then it is numbered from 5', async () => {
    const input = odt(
      '<text:list text:style-name="L1"><text:list-item><text:p>Fifth step</text:p></text:list-item><text:list-item><text:p>Sixth step</text:p></text:list-item></text:list>',
      '<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1" text:start-value="5"/></text:list-style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('5. Fifth step\n6. Sixth step\n');
  });

  it('When the file is not a zip package, then it fails with corrupt_file', async () => {
    await expect(convertDocument(Buffer.from('not a zip'), 'odt', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it("When a text document holds chart objects (in a paragraph, and in a table cell), then each chart's title, kind and data follow the paragraph, or the table, as a slide's chart reads", async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`;
    const chartNs = `${NS} xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0"`;
    const row = (...v: string[]) =>
      `<table:table-row>${v.map((x) => `<table:table-cell><text:p>${x}</text:p></table:table-cell>`).join('')}</table:table-row>`;
    const chart = (cls: string, title: string, rows: string) =>
      `<office:document-content ${chartNs}><office:body><office:chart><chart:chart chart:class="chart:${cls}">` +
      `<chart:title><text:p>${title}</text:p></chart:title><chart:plot-area>` +
      '<chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3"/></chart:plot-area>' +
      `<table:table table:name="local-table"><table:table-rows>${rows}</table:table-rows></table:table>` +
      '</chart:chart></office:chart></office:body></office:document-content>';
    // The frame also holds its replacement picture, as LibreOffice writes it: only a rendering of the data.
    const frame = (n: number) =>
      `<draw:frame draw:name="Object${n}" text:anchor-type="as-char"><draw:object xlink:href="./Object ${n}"/>` +
      `<draw:image xlink:href="./ObjectReplacements/Object ${n}"/></draw:frame>`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.text'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:body><office:text>` +
            `<text:p>Sales rose ${frame(1)}in spring.</text:p>` +
            `<table:table>${row('Figure 2', frame(2))}</table:table><text:p>End.</text:p>` +
            '</office:text></office:body></office:document-content>',
        ),
        'Object 1/content.xml': strToU8(
          chart('bar', 'Sales', row('', 'Units') + row('March', '5') + row('April', '8')),
        ),
        'Object 2/content.xml': strToU8(
          chart('circle', 'Share', row('', 'Part') + row('North', '60') + row('South', '40')),
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      'Sales rose in spring.\n\n**Sales**\n\n*Bar chart*\n\n|  | Units |\n| --- | --- |\n| March | 5 |\n| April | 8 |\n\n' +
        '| Figure 2 |\n| --- |\n\n**Share**\n\n*Pie chart*\n\n|  | Part |\n| --- | --- |\n| North | 60 |\n| South | 40 |\n\nEnd.\n',
    );
  });

  it('When a caption is typed right after its picture in a frame (LibreOffice), then a space sets the picture apart from it', async () => {
    const DRAW =
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
    const picture = (name: string) =>
      `<draw:frame ${DRAW} draw:name="${name}"><draw:image xlink:href="Pictures/${name}.png"/></draw:frame>`;
    const input = odt(
      `<text:p><draw:frame ${DRAW} draw:name="Frame1"><draw:text-box><text:p>${picture('Image1')}` +
        '<text:span>Figure <text:sequence>1</text:sequence></text:span>: The harbour at dawn</text:p>' +
        `</draw:text-box></draw:frame></text:p><text:p>An icon ${picture('gear')} inside, two ${picture('a')}${picture('b')} together.</text:p>`,
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe(
      '![image](#) Figure 1: The harbour at dawn\n\nAn icon ![gear](#) inside, two ![a](#)![b](#) together.\n',
    );
  });
});

describe('ODP', () => {
  it('When a slide has no title frame and opens with a one-line text shape in title type (a pptxgenjs deck through LibreOffice), then that line is its title', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const size = (name: string, pt: number, bold = false) =>
      `<style:style style:name="${name}" style:family="text"><style:text-properties fo:font-size="${pt}pt"${bold ? ' fo:font-weight="bold"' : ''}/></style:style>`;
    const shape = (style: string, text: string) =>
      `<draw:custom-shape><text:p><text:span text:style-name="${style}">${text}</text:span></text:p></draw:custom-shape>`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles>${size('T1', 36, true)}${size('T2', 18)}${size('T3', 14)}${size('T4', 28)}${size('T5', 72)}</office:automatic-styles>` +
            '<office:body><office:presentation>' +
            `<draw:page draw:name="page1">${shape('T1', 'Annual Review')}${shape('T2', 'Prepared by finance')}</draw:page>` +
            `<draw:page draw:name="Quiet">${shape('T3', 'Just a caption')}${shape('T3', 'More text')}</draw:page>` +
            `<draw:page draw:name="page3">${shape('T4', 'Agenda')}${shape('T5', '42%')}</draw:page>` +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe(
      '# Annual Review\n\nPrepared by finance\n\n# Quiet\n\nJust a caption\n\nMore text\n\n# page3\n\nAgenda\n\n42%\n',
    );
  });

  it("When a logo picture comes before a slide's one-line text frame in title type, then that line is still its title", async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`;
    const size = (name: string, pt: number) =>
      `<style:style style:name="${name}" style:family="paragraph"><style:text-properties fo:font-size="${pt}pt"/></style:style>`;
    const box = (style: string, text: string) =>
      `<draw:frame><draw:text-box><text:p text:style-name="${style}">${text}</text:p></draw:text-box></draw:frame>`;
    const logo = '<draw:frame draw:name="Logo"><draw:image xlink:href="Pictures/logo.png"/></draw:frame>';
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles>${size('P1', 48)}${size('P2', 36)}</office:automatic-styles>` +
            '<office:body><office:presentation>' +
            `<draw:page draw:name="page1">${logo}${box('P1', 'What is it?')}${box('P2', 'A class library')}</draw:page>` +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# What is it?\n\n![Logo](#)\n\nA class library\n');
  });

  it('When a slide has no title, then its own name is the heading, and a slide with neither is numbered; a subtitle is a plain line', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const box = (cls: string, text: string) =>
      `<draw:frame presentation:class="${cls}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:body><office:presentation>` +
            `<draw:page draw:name="Opening">${box('title', 'Welcome')}${box('subtitle', 'Hello')}</draw:page>` +
            `<draw:page draw:name="Budget">${box('notitle', 'Numbers follow')}</draw:page>` +
            `<draw:page>${box('notitle', 'The end')}</draw:page>` +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Welcome\n\nHello\n\n# Budget\n\nNumbers follow\n\n# Slide 3\n\nThe end\n');
  });

  it('When a paragraph has a note and a bold span holding an asterisk, then the note is a footnote and the asterisk is escaped once', async () => {
    const input = odt(
      '<text:p>Yield <text:span text:style-name="B">5*2</text:span><text:note text:note-class="footnote"><text:note-body><text:p>See <text:span text:style-name="B">table</text:span>.</text:p></text:note-body></text:note> rises.</text:p>',
      '<style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('Yield **5\\*2**[^1] rises.\n\n[^1]: See **table**.\n');
  });

  it('When slide text holds Markdown characters and bold, then it is escaped once and the bold kept', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles><style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>` +
            '<office:body><office:presentation><draw:page draw:name="One"><draw:frame presentation:class="notitle"><draw:text-box>' +
            '<text:p>a_b [x] <text:span text:style-name="B">bold</text:span></text:p></draw:text-box></draw:frame></draw:page>' +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# One\n\na_b \\[x\\] **bold**\n');
  });

  it('When a slide has a chart object, consecutive lists, nested items and a comment, then each keeps its form', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:officeooo="http://openoffice.org/2009/office"`;
    const chartNs = `${NS} xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0"`;
    const c = (v: string) => `<table:table-cell><text:p>${v}</text:p></table:table-cell>`;
    const row = (...v: string[]) => `<table:table-row>${v.map(c).join('')}</table:table-row>`;
    const chart =
      `<office:document-content ${chartNs}><office:body><office:chart><chart:chart chart:class="chart:bar">` +
      '<chart:title><text:p>Visitors</text:p></chart:title><chart:plot-area>' +
      '<chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3"/><chart:series chart:values-cell-range-address="local-table.$C$2:.$C$3"/></chart:plot-area>' +
      `<table:table table:name="local-table"><table:table-header-rows>${row('', 'Park', 'Museum')}</table:table-header-rows>` +
      `<table:table-rows>${row('May', '5', '7')}${row('June', '6', '9')}</table:table-rows></table:table></chart:chart></office:chart></office:body></office:document-content>`;
    const styles =
      '<text:list-style style:name="Plain"><text:list-level-style-number text:level="1" style:num-format=""/></text:list-style>' +
      '<text:list-style style:name="Dots"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/><text:list-level-style-bullet text:level="2" text:bullet-char="–"/></text:list-style>';
    const outline =
      '<draw:frame presentation:class="outline" svg:y="1cm" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"><draw:text-box>' +
      '<text:list text:style-name="Plain"><text:list-item><text:p>Agenda</text:p></text:list-item></text:list>' +
      '<text:list text:style-name="Dots"><text:list-item><text:p>Parks</text:p><text:list><text:list-item><text:p>North</text:p></text:list-item></text:list></text:list-item>' +
      '<text:list-item><text:p>Museums</text:p></text:list-item></text:list></draw:text-box></draw:frame>';
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:presentation>` +
            `<draw:page draw:name="Stats">${outline}<draw:frame><draw:object xlink:href="./Object 1"/></draw:frame>` +
            '<officeooo:annotation><dc:creator>Eve</dc:creator><text:p>Update for July</text:p></officeooo:annotation></draw:page>' +
            '</office:presentation></office:body></office:document-content>',
        ),
        'Object 1/content.xml': strToU8(chart),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe(
      '# Stats\n\n1. Agenda\n\n- Parks\n  - North\n- Museums\n\n**Visitors**\n\n*Bar chart*\n\n' +
        '|  | Park | Museum |\n| --- | --- | --- |\n| May | 5 | 7 |\n| June | 6 | 9 |\n\n### Comments\n\nComment by Eve: Update for July\n',
    );
  });

  it('When a chart names its series along rows, then the series still become columns', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`;
    const chartNs = `${NS} xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0"`;
    const row = (...v: string[]) =>
      `<table:table-row>${v.map((x) => `<table:table-cell><text:p>${x}</text:p></table:table-cell>`).join('')}</table:table-row>`;
    const chart =
      `<office:document-content ${chartNs}><office:body><office:chart><chart:chart chart:class="chart:line"><chart:plot-area>` +
      '<chart:series chart:values-cell-range-address="local-table.$B$2:.$C$2"/></chart:plot-area>' +
      `<table:table table:name="local-table"><table:table-rows>${row('', 'Mon', 'Tue')}${row('Rain', '3', '1')}</table:table-rows></table:table>` +
      '</chart:chart></office:chart></office:body></office:document-content>';
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:body><office:presentation><draw:page draw:name="Week">` +
            '<draw:frame><draw:object xlink:href="./Object 2"/></draw:frame></draw:page></office:presentation></office:body></office:document-content>',
        ),
        'Object 2/content.xml': strToU8(chart),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Week\n\n*Line chart*\n\n|  | Rain |\n| --- | --- |\n| Mon | 3 |\n| Tue | 1 |\n');
  });

  it('When a span style inherits bold and lowering from a common parent style, then its text is strong and subscript', async () => {
    const input = odt(
      '<text:p>CO<text:span text:style-name="T1">2</text:span> level</text:p>',
      '<style:style style:name="T1" style:family="text" style:parent-style-name="Index"><style:text-properties fo:color="#ff0000"/></style:style>',
      '',
      '<style:style style:name="Index" style:family="text"><style:text-properties fo:font-weight="bold" style:text-position="sub 58%"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('CO**<sub>2</sub>** level\n');
  });

  it('When a paragraph style is italic through its parent, then its text is emphasised and a span set upright is not', async () => {
    const input = odt(
      '<text:p text:style-name="P1">Said <text:span text:style-name="T1">plainly</text:span> here</text:p>',
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Aside"/>' +
        '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-style="normal"/></style:style>',
      '',
      '<style:style style:name="Aside" style:family="paragraph"><style:text-properties fo:font-style="italic"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('*Said* plainly *here*\n');
  });

  it("When styles.xml has its own automatic style of the same name, then content's automatic style is the one used", async () => {
    const input = odt(
      '<text:p>A <text:span text:style-name="T1">struck</text:span> word</text:p>',
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-line-through-style="solid"/></style:style>',
      '',
      '',
      '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('A ~~struck~~ word\n');
  });

  it('When a heading style is bold, then the heading has no strong markers', async () => {
    const input = odt(
      '<text:h text:style-name="Heading_20_1" text:outline-level="1">Scope</text:h>',
      '',
      '',
      '<style:style style:name="Heading_20_1" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>',
    );
    const { markdown } = await convertDocument(input, 'odt', std);
    expect(markdown).toBe('# Scope\n');
  });

  it("When slide paragraphs have a bold paragraph style, then body text is strong and the title's is not", async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles><style:style style:name="P1" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>` +
            '<office:body><office:presentation><draw:page draw:name="One">' +
            '<draw:frame presentation:class="title"><draw:text-box><text:p text:style-name="P1">Agenda</text:p></draw:text-box></draw:frame>' +
            '<draw:frame presentation:class="notitle"><draw:text-box><text:p text:style-name="P1">Key point</text:p></draw:text-box></draw:frame>' +
            '</draw:page></office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Agenda\n\n**Key point**\n');
  });

  it('When a slide title is bold through its spans (on two lines, too) and partly italic, then the title drops the bold and keeps the italic part', async () => {
    const ns = `${NS} xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`;
    const styles =
      '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-weight="bold" fo:font-style="italic"/></style:style>';
    const title = (inner: string) =>
      `<draw:page><draw:frame presentation:class="title"><draw:text-box><text:p>${inner}</text:p></draw:text-box></draw:frame></draw:page>`;
    const input = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
        'content.xml': strToU8(
          `<office:document-content ${ns}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:presentation>` +
            title('<text:span text:style-name="T1">Roadmap 2027</text:span>') +
            title('<text:span text:style-name="T1">Plan </text:span><text:span text:style-name="T2">now</text:span>') +
            title(
              '<text:span text:style-name="T1">Collaborated Editing </text:span><text:span text:style-name="T1"><text:line-break/></text:span><text:span text:style-name="T1">on ODF</text:span>',
            ) +
            '</office:presentation></office:body></office:document-content>',
        ),
      }),
    );
    const { markdown } = await convertDocument(input, 'odp', std);
    expect(markdown).toBe('# Roadmap 2027\n\n# Plan *now*\n\n# Collaborated Editing on ODF\n');
  });
});

describe('ODT lists typed as text', () => {
  it('When paragraphs open with a typed bullet and a tab, then they are a list without the bullets', async () => {
    const input = odt(
      '<text:p>Pack:</text:p><text:p>•<text:tab/>Tent</text:p><text:p>▪ Stove</text:p><text:p>Go.</text:p>',
    );
    expect((await convertDocument(input, 'odt', std)).markdown).toBe('Pack:\n\n- Tent\n- Stove\n\nGo.\n');
  });
});

describe('ODT symbol fonts', () => {
  it("When spans are in Wingdings or Symbol (LibreOffice keeps Word's symbols as private-use codes in that font), then they read as the marks and letters they draw", async () => {
    const font = (name: string, family: string) =>
      `<style:style style:name="${name}" style:family="text"><style:text-properties style:font-name="${family}"/></style:style>`;
    const input = odt(
      '<text:p>Done <text:span text:style-name="T1">\uf0fc</text:span>, boxed <text:span text:style-name="T1">þ</text:span>, ' +
        '<text:span text:style-name="T2">a</text:span> = 0.5, plain <text:span text:style-name="T3">ü</text:span></text:p>',
      font('T1', 'Wingdings') + font('T2', 'Symbol') + font('T3', 'Liberation Serif'),
    );
    expect((await convertDocument(input, 'odt', std)).markdown).toBe('Done ✓, boxed ☑, α = 0.5, plain ü\n');
  });
});
