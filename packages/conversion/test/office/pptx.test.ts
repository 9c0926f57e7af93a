import JSZip from 'jszip';
import sharp from 'sharp';
import PptxGenJS from 'pptxgenjs';
import { convertDocument } from '../../src';
import { DIAGRAM_DATA_REL, SMARTART_GRAPHIC, smartArtData } from '../smartart';
import { bof, ducksSeenChart, eof, workbookStorage } from '../biff8';
import { CHARTEX_REL, chartExGraphic, chartExPart } from '../chartex';

const std = { enhanced: false };

describe('PPTX', () => {
  it('When a deck has titled slides, bullets, a table and notes, then each slide is a section in order', async () => {
    const pptx = new PptxGenJS();
    pptx.title = 'Deck';
    pptx.author = 'Nora';
    const s1 = pptx.addSlide();
    s1.addText('Plan für 2027', { placeholder: 'title', x: 0.5, y: 0.3, w: 9, h: 1 });
    s1.addText('Grow revenue', { x: 0.5, y: 1.5, w: 9, h: 0.5, bullet: true });
    s1.addText('Hire', { x: 0.5, y: 2.1, w: 9, h: 0.5, bullet: true });
    s1.addNotes('Speak slowly.');
    const s2 = pptx.addSlide();
    s2.addTable(
      [
        [{ text: 'Q' }, { text: 'Revenue' }],
        [{ text: 'Q1' }, { text: '10' }],
      ],
      { x: 0.5, y: 1, w: 6 },
    );
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown, metadata } = await convertDocument(input, 'pptx', std);
    expect(markdown).toContain('- Grow revenue\n');
    expect(markdown).toContain('- Hire');
    expect(markdown).toContain('### Notes\n\nSpeak slowly.');
    expect(markdown).toMatch(/# Slide 2\n\n\| Q \| Revenue \|\n\| --- \| --- \|\n\| Q1 \| 10 \|/);
    expect(markdown.indexOf('Grow revenue')).toBeLessThan(markdown.indexOf('Hire'));
    expect(metadata).toEqual({ title: 'Deck', author: 'Nora', page_count: 2 });
  });

  it('When a slide has no title placeholder and opens with a one-line text box in title type (pptxgenjs decks), then that line is its title', async () => {
    const pptx = new PptxGenJS();
    const cover = pptx.addSlide();
    cover.addText('Annual Review', { x: 1, y: 1, w: 8, h: 1, fontSize: 36, bold: true });
    cover.addText('Prepared by finance', { x: 1, y: 2.2, w: 8, h: 0.6, fontSize: 18 });
    const small = pptx.addSlide();
    small.addText('Just a caption', { x: 1, y: 1, w: 8, h: 1, fontSize: 14 });
    small.addText('More text', { x: 1, y: 2, w: 8, h: 1, fontSize: 14 });
    const outsized = pptx.addSlide();
    outsized.addText('Agenda', { x: 1, y: 0.5, w: 8, h: 1, fontSize: 28 });
    outsized.addText('42%', { x: 1, y: 2, w: 8, h: 2, fontSize: 72 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe(
      '# Annual Review\n\nPrepared by finance\n\n# Slide 2\n\nJust a caption\n\nMore text\n\n# Slide 3\n\nAgenda\n\n42%\n',
    );
  });

  it("When a logo picture stands above a slide's one-line text box in title type, then that line is still its title and the logo follows it", async () => {
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addImage({
      data: `data:image/png;base64,${png.toString('base64')}`,
      x: 0.1,
      y: 0.1,
      w: 2,
      h: 0.4,
      altText: 'Logo',
    });
    slide.addText('What is it?', { x: 0.1, y: 0.6, w: 9, h: 1, fontSize: 48, bold: true });
    slide.addText('A class library', { x: 0.1, y: 1.8, w: 9, h: 1, fontSize: 36 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# What is it?\n\n![Logo](#)\n\nA class library\n');
  });

  it('When text boxes sit side by side with tops a hair apart, then they read left to right before the row below', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addText('Below', { x: 0.5, y: 3, w: 9, h: 0.5 });
    slide.addText('Right', { x: 5, y: 1, w: 4, h: 1 });
    slide.addText('Left', { x: 0.5, y: 1.05, w: 4, h: 1 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\nLeft\n\nRight\n\nBelow\n');
  });

  it('When a slide master or layout is not well-formed XML, then the slides are still read', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addText('Thank you', { x: 1, y: 1, w: 8, h: 1, fontSize: 40 });
    slide.addText('Questions welcome', { x: 1, y: 2.5, w: 8, h: 1, fontSize: 20 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    for (const part of ['ppt/slideMasters/slideMaster1.xml', 'ppt/slideLayouts/slideLayout1.xml']) {
      const xml = await zip.file(part)!.async('string');
      // A tag left open, as PHPPresentation wrote one (`<p:nvSpPr` with no `>`).
      zip.file(part, xml.replace('<p:nvGrpSpPr>', '<p:nvGrpSpPr'));
    }
    const input = await zip.generateAsync({ type: 'nodebuffer' });
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Thank you\n\nQuestions welcome\n');
  });

  it('When the file is not a presentation package, then it fails as corrupt', async () => {
    await expect(convertDocument(Buffer.from('nope'), 'pptx', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it('When a slide has a titled chart, then it becomes a table of its series and categories under its title and kind', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addChart(
      pptx.ChartType.bar,
      [
        { name: 'North', labels: ['Q1', 'Q2', 'Q3'], values: [10, 20, 30] },
        { name: 'South', labels: ['Q1', 'Q2', 'Q3'], values: [5, 15, 25] },
      ],
      { x: 1, y: 1, w: 8, h: 4, showTitle: true, title: 'Revenue by region' },
    );
    pptx.addSlide().addChart(pptx.ChartType.pie, [{ name: 'Share', labels: ['A', 'B'], values: [60, 40] }], {
      x: 1,
      y: 1,
      w: 4,
      h: 4,
    });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toContain(
      '**Revenue by region**\n\n*Bar chart*\n\n|  | North | South |\n| --- | --- | --- |\n| Q1 | 10 | 5 |\n| Q2 | 20 | 15 |\n| Q3 | 30 | 25 |',
    );
    expect(markdown).toContain('*Pie chart*\n\n|  | Share |\n| --- | --- |\n| A | 60 |\n| B | 40 |');
  });

  it('When shapes of newer kinds stand in mc:AlternateContent (a text box holding an equation, an Office 2016 funnel chart, ink with a picture fallback), then the equation is TeX, the chart its data, and the ink stays out', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Pipeline', { x: 0.5, y: 0.2, w: 8, h: 0.8, fontSize: 32 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const M =
      'xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
    const alternate = (requires: string, choice: string, fallback: string) =>
      `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="${requires}">${choice}</mc:Choice><mc:Fallback>${fallback}</mc:Fallback></mc:AlternateContent>`;
    const box = (id: number, y: number, body: string) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Box ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="${y}"/><a:ext cx="4000000" cy="400000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp>`;
    const picture = (id: number, name: string) =>
      `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip/></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="5000000"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr></p:pic>`;
    const equation =
      `<a:p><a14:m ${M}><m:oMathPara><m:oMath><m:r><m:t>a+b</m:t></m:r></m:oMath></m:oMathPara></a14:m></a:p>` +
      `<a:p><a:r><a:t>where </a:t></a:r>${alternate('a14', `<a14:m ${M}><m:oMath><m:r><m:t>a</m:t></m:r></m:oMath></a14:m>`, '<a:r><a:t>a</a:t></a:r>')}<a:r><a:t> is new.</a:t></a:r></a:p>`;
    const chart =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="31" name="Chart 31"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
      `<p:xfrm><a:off x="457200" y="3000000"/><a:ext cx="4000000" cy="2000000"/></p:xfrm>${chartExGraphic('rIdCx')}</p:graphicFrame>`;
    const shapes =
      alternate('a14', box(21, 1200000, equation), picture(22, 'Equation picture')) +
      alternate('cx1', chart, picture(32, 'Chart picture')) +
      alternate(
        'p14',
        '<p14:contentPart xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" r:id="rIdInk"/>',
        picture(41, 'Ink 41'),
      );
    const slide = (await zip.file('ppt/slides/slide1.xml')!.async('string')).replace(
      '</p:spTree>',
      `${shapes}</p:spTree>`,
    );
    zip.file('ppt/slides/slide1.xml', slide);
    const rels = await zip.file('ppt/slides/_rels/slide1.xml.rels')!.async('string');
    zip.file(
      'ppt/slides/_rels/slide1.xml.rels',
      rels.replace(
        '</Relationships>',
        `<Relationship Id="rIdCx" Type="${CHARTEX_REL}" Target="../charts/chartEx1.xml"/></Relationships>`,
      ),
    );
    zip.file(
      'ppt/charts/chartEx1.xml',
      chartExPart({
        title: 'Deals',
        layout: 'funnel',
        levels: [['Leads', 'Offers', 'Won']],
        series: [{ name: 'Count', values: ['120', '40', '9'] }],
      }),
    );
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toBe(
      '# Pipeline\n\n$$a+b$$\n\nwhere $a$ is new.\n\n**Deals**\n\n*Funnel chart*\n\n|  | Count |\n| --- | --- |\n| Leads | 120 |\n| Offers | 40 |\n| Won | 9 |\n',
    );
  });

  it('When runs are typed in Wingdings (its Latin font, or private-use codes in its symbol font), then they read as the marks they draw', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Checklist', { x: 0.5, y: 0.2, w: 8, h: 0.8, fontSize: 32 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const run = (text: string, rPr = '') => `<a:r><a:rPr lang="en-US">${rPr}</a:rPr><a:t>${text}</a:t></a:r>`;
    const box =
      '<p:sp><p:nvSpPr><p:cNvPr id="21" name="Box 21"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="1200000"/><a:ext cx="4000000" cy="400000"/></a:xfrm></p:spPr>' +
      `<p:txBody><a:bodyPr/><a:p>${run('Tests ')}${run('ü', '<a:latin typeface="Wingdings"/>')}${run(' Docs ')}${run('\uf0fe', '<a:sym typeface="Wingdings"/>')}</a:p></p:txBody></p:sp>`;
    const slide = (await zip.file('ppt/slides/slide1.xml')!.async('string')).replace(
      '</p:spTree>',
      `${box}</p:spTree>`,
    );
    zip.file('ppt/slides/slide1.xml', slide);
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toBe('# Checklist\n\nTests ✓ Docs ☑\n');
  });

  it('When a chart caches a number to 17 digits, then it shows as Office shows it (15), and a long text label stays whole', async () => {
    const pptx = new PptxGenJS();
    pptx
      .addSlide()
      .addChart(pptx.ChartType.bar, [{ name: 'Rate', labels: ['12345678901234567890', 'B'], values: [7, 3] }], {
        x: 1,
        y: 1,
        w: 8,
        h: 4,
      });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const part = Object.keys(zip.files).find((f) => /charts\/chart\d+\.xml$/.test(f))!;
    const xml = (await zip.file(part)!.async('string'))
      .replace(/(<c:val>[\s\S]*?<c:pt idx="0">\s*<c:v>)7(<\/c:v>)/, '$14.4000000000000004$2')
      .replace(/(<c:val>[\s\S]*?<c:pt idx="1">\s*<c:v>)3(<\/c:v>)/, '$10.30000000000000004$2');
    expect(xml).toContain('4.4000000000000004');
    zip.file(part, xml);
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toContain('|  | Rate |\n| --- | --- |\n| 12345678901234567890 | 4.4 |\n| B | 0.3 |');
  });

  it('When a chart has grouped categories and a blank point, then labels join their groups and values stay in their rows', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addChart(
      pptx.ChartType.line,
      [
        {
          name: 'Sales',
          labels: [
            ['Jan', 'Feb', 'Jan', 'Feb'],
            ['2025', '', '2026', ''],
          ],
          values: [1, 2, 3, 4],
        },
      ],
      { x: 1, y: 1, w: 8, h: 4 },
    );
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const part = Object.keys(zip.files).find((f) => /charts\/chart\d+\.xml$/.test(f))!;
    // The second value's cell left blank, as a sheet with a gap caches it: no point with idx 1.
    const xml = (await zip.file(part)!.async('string')).replace(
      /(<c:val>[\s\S]*?)<c:pt idx="1">[\s\S]*?<\/c:pt>/,
      '$1',
    );
    zip.file(part, xml);
    const input = await zip.generateAsync({ type: 'nodebuffer' });
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toContain(
      '|  | Sales |\n| --- | --- |\n| 2025 / Jan | 1 |\n| 2025 / Feb |  |\n| 2026 / Jan | 3 |\n| 2026 / Feb | 4 |',
    );
  });

  it('When slides carry classic and threaded comments, then each slide lists them with their authors, replies after', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('One', { x: 0.5, y: 1, w: 9, h: 1 });
    pptx.addSlide().addText('Two', { x: 0.5, y: 1, w: 9, h: 1 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
    const M =
      'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
    zip.file(
      'ppt/commentAuthors.xml',
      `<p:cmAuthorLst ${P}><p:cmAuthor id="0" name="Ana Ruiz" initials="AR"/></p:cmAuthorLst>`,
    );
    zip.file(
      'ppt/comments/comment1.xml',
      `<p:cmLst ${P}><p:cm authorId="0" idx="1"><p:text>Check the figure</p:text></p:cm></p:cmLst>`,
    );
    zip.file(
      'ppt/authors.xml',
      `<p188:authorLst ${M}><p188:author id="{A1}" name="Bo Lin"/><p188:author id="{B2}" name="Cy Ng"/></p188:authorLst>`,
    );
    const body = (t: string) => `<p188:txBody><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></p188:txBody>`;
    zip.file(
      'ppt/comments/modernComment_2.xml',
      `<p188:cmLst ${M}><p188:cm id="{C}" authorId="{A1}">${body('Shorter?')}<p188:replyLst><p188:reply id="{R}" authorId="{B2}">${body('Agreed')}</p188:reply></p188:replyLst></p188:cm></p188:cmLst>`,
    );
    const link = async (slide: number, target: string): Promise<void> => {
      const rels = `ppt/slides/_rels/slide${slide}.xml.rels`;
      const xml = await zip.file(rels)!.async('string');
      zip.file(
        rels,
        xml.replace(
          '</Relationships>',
          `<Relationship Id="rIdC9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="${target}"/></Relationships>`,
        ),
      );
    };
    await link(1, '../comments/comment1.xml');
    await link(2, '../comments/modernComment_2.xml');
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toBe(
      '# Slide 1\n\nOne\n\n### Comments\n\nComment by Ana Ruiz: Check the figure\n\n' +
        '# Slide 2\n\nTwo\n\n### Comments\n\nComment by Bo Lin: Shorter?\n\nComment by Cy Ng: Agreed\n',
    );
  });

  it('When a slide holds a SmartArt diagram, then its text is a list nested as its outline, in connection order', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Process', { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    zip.file('ppt/diagrams/data1.xml', smartArtData());
    const rels = 'ppt/slides/_rels/slide1.xml.rels';
    zip.file(
      rels,
      (await zip.file(rels)!.async('string')).replace(
        '</Relationships>',
        `${DIAGRAM_DATA_REL.replace('diagrams/', '../diagrams/')}</Relationships>`,
      ),
    );
    const frame =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
      `<p:xfrm><a:off x="457200" y="2743200"/><a:ext cx="8229600" cy="3000000"/></p:xfrm>${SMARTART_GRAPHIC}</p:graphicFrame>`;
    const slide = 'ppt/slides/slide1.xml';
    zip.file(slide, (await zip.file(slide)!.async('string')).replace('</p:spTree>', `${frame}</p:spTree>`));
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\nProcess\n\n- Plan\n- Build\n  - Test the parts\n- Ship\n');
  });

  it('When a slide holds an MS Graph chart as an OLE object (a deck saved from PPT), then its title, kind and data are read as in a PPT', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Results', { x: 0.5, y: 0.3, w: 9, h: 0.8 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const chart = ducksSeenChart();
    zip.file('ppt/embeddings/oleObject1.bin', workbookStorage(Buffer.concat([bof(0x0005), eof(), chart])));
    const rels = 'ppt/slides/_rels/slide1.xml.rels';
    zip.file(
      rels,
      (await zip.file(rels)!.async('string')).replace(
        '</Relationships>',
        '<Relationship Id="rIdOle1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject" Target="../embeddings/oleObject1.bin"/></Relationships>',
      ),
    );
    const frame =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Object 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>' +
      '<p:xfrm><a:off x="457200" y="2743200"/><a:ext cx="8229600" cy="3000000"/></p:xfrm>' +
      '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><p:oleObj name="Chart" r:id="rIdOle1" progId="MSGraph.Chart.8"><p:embed/></p:oleObj></a:graphicData></a:graphic></p:graphicFrame>';
    const slide = 'ppt/slides/slide1.xml';
    zip.file(slide, (await zip.file(slide)!.async('string')).replace('</p:spTree>', `${frame}</p:spTree>`));
    const { markdown } = await convertDocument(await zip.generateAsync({ type: 'nodebuffer' }), 'pptx', std);
    expect(markdown).toBe(
      '# Slide 1\n\nResults\n\n**Ducks seen**\n\n*Line chart*\n\n|  | Mallard |\n| --- | --- |\n| 2021 | 120 |\n| 2022 | 130 |\n',
    );
  });

  it('When a slide sets a heading over each of two columns (Comparison layout), then each heading is read with its column, left then right', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addText('Build versus buy', { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 32 });
    // Added right column first: the file's order is not the reading order.
    slide.addText('Buy', { x: 5.1, y: 1.25, w: 4.4, h: 0.5, fontSize: 20 });
    slide.addText([{ text: 'Live in six weeks', options: { bullet: true } }], { x: 5.1, y: 1.8, w: 4.4, h: 3 });
    slide.addText('Build', { x: 0.5, y: 1.2, w: 4.4, h: 0.5, fontSize: 20 });
    slide.addText([{ text: 'Needs a team of four', options: { bullet: true } }], { x: 0.5, y: 1.85, w: 4.4, h: 3 });
    // A grid of labels and values in boxes of one height stays rows.
    const grid = pptx.addSlide();
    grid.addText('Owner', { x: 0.5, y: 1, w: 3, h: 0.5 });
    grid.addText('Dana', { x: 4, y: 1, w: 3, h: 0.5 });
    grid.addText('Due', { x: 0.5, y: 1.6, w: 3, h: 0.5 });
    grid.addText('March', { x: 4, y: 1.6, w: 3, h: 0.5 });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe(
      '# Build versus buy\n\nBuild\n\n- Needs a team of four\n\nBuy\n\n- Live in six weeks\n\n# Slide 2\n\nOwner\n\nDana\n\nDue\n\nMarch\n',
    );
  });

  it('When placeholders take their place from the slide layout, then they are read where the layout puts them', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Body', { x: 0.5, y: 1.5, w: 9, h: 3 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const part = 'ppt/slides/slide1.xml';
    const xml = await zip.file(part)!.async('string');
    // A comparison slide as PowerPoint saves it: the placeholders set no position of their own; the
    // file lists the right column before the left one.
    const ph = (id: number, idx: number, text: string): string =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="P${id}"/><p:cNvSpPr/><p:nvPr><p:ph idx="${idx}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:pPr><a:buNone/></a:pPr><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const shapes = ph(10, 3, 'Right') + ph(11, 2, 'Left');
    await zip.file(part, xml.replace(/<p:sp>.*<\/p:sp>/s, shapes));
    const layoutPart = Object.keys(zip.files).find((f) => /slideLayouts\/slideLayout\d+\.xml$/.test(f))!;
    const layout = await zip.file(layoutPart)!.async('string');
    const box = (id: number, idx: number, x: number): string =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="L${id}"/><p:cNvSpPr/><p:nvPr><p:ph idx="${idx}"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="1600000"/><a:ext cx="4000000" cy="3000000"/></a:xfrm></p:spPr></p:sp>`;
    await zip.file(layoutPart, layout.replace('</p:spTree>', box(20, 2, 500000) + box(21, 3, 5000000) + '</p:spTree>'));
    const input = await zip.generateAsync({ type: 'nodebuffer' });
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\nLeft\n\nRight\n');
  });

  it('When shapes sit in a group, then their places are mapped from the group onto the slide', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Body', { x: 0.5, y: 1.5, w: 9, h: 3 });
    const zip = await JSZip.loadAsync((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const part = 'ppt/slides/slide1.xml';
    const xml = await zip.file(part)!.async('string');
    const box = (id: number, x: number, y: number, text: string): string =>
      `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="T${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="100" cy="50"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    // The group's children are in its own space (0..200 by 0..200), drawn at the slide's bottom half;
    // the box outside the group lies between the group's two rows.
    const group =
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="30" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
      '<p:grpSpPr><a:xfrm><a:off x="0" y="3000000"/><a:ext cx="8000000" cy="3000000"/><a:chOff x="0" y="0"/><a:chExt cx="200" cy="200"/></a:xfrm></p:grpSpPr>' +
      box(31, 0, 0, 'Grouped top') +
      box(32, 0, 150, 'Grouped bottom') +
      '</p:grpSp>';
    await zip.file(part, xml.replace(/<p:sp>.*<\/p:sp>/s, group + box(40, 0, 4000000, 'Loose middle')));
    const input = await zip.generateAsync({ type: 'nodebuffer' });
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\nGrouped top\n\nLoose middle\n\nGrouped bottom\n');
  });

  it('When a numbered list starts at 4, then it is numbered from 4', async () => {
    const pptx = new PptxGenJS();
    const numbered = { bullet: { type: 'number' as const, numberStartAt: 4 } };
    pptx.addSlide().addText(
      [
        { text: 'Close the lease', options: numbered },
        { text: 'Hire two engineers', options: numbered },
      ],
      { x: 0.5, y: 1, w: 9, h: 2 },
    );
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\n4. Close the lease\n5. Hire two engineers\n');
  });

  it('When a text box holds a listing in a monospaced face, then it is a code block with its indentation; monospaced prose stays prose', async () => {
    const pptx = new PptxGenJS();
    const slide = pptx.addSlide();
    slide.addText('def square(x):\n    return x * x', { x: 0.5, y: 1, w: 9, h: 2, fontFace: 'Courier New' });
    slide.addText('Typed on a typewriter', { x: 0.5, y: 3.5, w: 9, h: 1, fontFace: 'Courier New' });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe('# Slide 1\n\n```\ndef square(x):\n    return x * x\n```\n\nTyped on a typewriter\n');
  });
  it('When a row of photos stands over names and roles, then each photo is read with its name and role; an empty placeholder splits nothing', async () => {
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const pptx = new PptxGenJS();
    pptx.defineSlideMaster({
      title: 'TB',
      objects: [{ placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1, w: 9, h: 4 }, text: '' } }],
    });
    const slide = pptx.addSlide({ masterName: 'TB' });
    [
      ['Ines Duarte', 'Chief Executive'],
      ['Tomas Berg', 'Head of Sales'],
    ].forEach(([name, role], i) => {
      const x = 0.5 + i * 4.5;
      slide.addImage({
        data: `data:image/png;base64,${png.toString('base64')}`,
        x,
        y: 1,
        w: 3,
        h: 2,
        altText: `Portrait of ${name}`,
      });
      slide.addText(name!, { x, y: 3.1, w: 3, h: 0.5 });
      slide.addText(role!, { x, y: 3.6, w: 3, h: 0.4 });
    });
    const input = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
    const { markdown } = await convertDocument(input, 'pptx', std);
    expect(markdown).toBe(
      '# Slide 1\n\n![Portrait of Ines Duarte](#)\n\nInes Duarte\n\nChief Executive\n\n![Portrait of Tomas Berg](#)\n\nTomas Berg\n\nHead of Sales\n',
    );
  });
});
