import CFB from 'cfb';
import { strToU8, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';
import { convertDocument } from '../../src';
import { appendToWorkbook, bof, chartSubstream, eof, workbookStorage } from '../biff8';
import { group, persistEdit, pptDocument, pptFile, currentUser, record, shape, slide, textAtom } from '../ppt97';

const std = { enhanced: false };
const convert = async (file: Buffer): Promise<string> => (await convertDocument(file, 'ppt', std)).markdown;
const title = (text: string): Buffer => shape({ box: [500, 100, 5000, 600], text: { kind: 0, text } });
const cell = (box: [number, number, number, number], text = ''): Buffer =>
  shape({ box, text: text ? { kind: 4, text } : undefined }, true);

describe('PPT (PowerPoint 97-2003) slides', () => {
  it('When a slide has no title placeholder and its topmost text is a plain one-line box (a LibreOffice title slide), then that line is its title', async () => {
    const drawn = shape({ box: [500, 1500, 5000, 2200], text: { kind: 4, text: 'Project Kickoff' } });
    const subtitle = shape({ box: [500, 2400, 5000, 2800], text: { kind: 4, text: 'March planning' } });
    const twoLines = shape({ box: [500, 500, 5000, 900], text: { kind: 4, text: 'First line\rSecond line' } });
    const { stream, currentUser: user } = pptDocument({
      slides: [slide(subtitle, drawn), slide(twoLines), slide(title('Goals'), subtitle)],
    });
    expect(await convert(pptFile(stream, user))).toBe(
      '# Project Kickoff\n\nMarch planning\n\n# Slide 2\n\nFirst line\n\nSecond line\n\n# Goals\n\nMarch planning\n',
    );
  });

  it('When a slide has a table (a group shape flagged as a table), then its cells become a table, merged cells repeated and Markdown characters escaped', async () => {
    // Columns at 1000 | 2000 | 3000 | 4000, rows at 1000 | 1200 | 1400; "Region" spans the two value columns.
    const table = group(
      [1000, 1000, 4000, 1400],
      [
        cell([1000, 1000, 2000, 1200]),
        cell([2000, 1000, 4000, 1200], 'Region'),
        cell([1000, 1200, 2000, 1400], 'Q1 *est*'),
        cell([2000, 1200, 3000, 1400], 'North'),
        cell([3000, 1200, 4000, 1400], 'South\rcoast'),
        shape({ box: [1000, 1200, 4000, 1200], shapeType: 20 }, true), // a border line
      ],
      true,
    );
    const note = shape({ box: [1000, 3000, 4000, 3300], text: { kind: 4, text: 'Source: survey' } });
    const { stream, currentUser: user } = pptDocument({ slides: [slide(note, table, title('Sales'))] });
    expect(await convert(pptFile(stream, user))).toBe(
      '# Sales\n\n|  | Region | Region |\n| --- | --- | --- |\n| Q1 \\*est\\* | North | South coast |\n\nSource: survey\n',
    );
  });

  it("When a table's cells are one unit tall (as LibreOffice writes them), then each stays its own row", async () => {
    const table = group(
      [1000, 1000, 3000, 1003],
      [
        cell([1000, 1000, 2000, 1001], 'Quarter'),
        cell([2000, 1000, 3000, 1001], 'Owner'),
        cell([1000, 1001, 2000, 1002], 'Q1'),
        cell([2000, 1001, 3000, 1002], 'Platform'),
        cell([1000, 1002, 2000, 1003], 'Q2'),
        cell([2000, 1002, 3000, 1003]),
      ],
      true,
    );
    const { stream, currentUser: user } = pptDocument({ slides: [slide(title('Plan'), table)] });
    expect(await convert(pptFile(stream, user))).toBe(
      '# Plan\n\n| Quarter | Owner |\n| --- | --- |\n| Q1 | Platform |\n| Q2 |  |\n',
    );
  });

  it('When shapes are stored out of order, then they read top to bottom and side by side left to right, numbered lists numbered', async () => {
    /** A StyleTextPropAtom paragraph run of `chars` characters at level 0 with its bullet turned on. */
    const bulleted = (chars: number): Buffer => {
      const run = Buffer.alloc(12);
      run.writeUInt32LE(chars, 0);
      run.writeUInt32LE(0x0001, 6);
      run.writeUInt16LE(1, 10);
      return run;
    };
    const steps = shape({
      box: [3000, 1010, 5000, 2000],
      text: { kind: 4, text: 'Mix\rBake', style: bulleted(9) },
      numbered: [true],
    });
    const left = shape({ box: [500, 1000, 2500, 2000], text: { kind: 1, text: 'Flour\rEggs' } });
    const footer = shape({ box: [500, 3500, 5000, 3800], text: { kind: 4, text: 'Enjoy.' } });
    const { stream, currentUser: user } = pptDocument({ slides: [slide(footer, steps, title('Cake'), left)] });
    expect(await convert(pptFile(stream, user))).toBe('# Cake\n\n- Flour\n- Eggs\n\n1. Mix\n2. Bake\n\nEnjoy.\n');
  });

  it('When a slide sets a heading over each of two columns (Comparison layout), then each heading is read with its column, left then right', async () => {
    // Box: left, top, right, bottom; the right column is stored first.
    const buyHead = shape({ box: [3100, 1050, 5500, 1350], text: { kind: 4, text: 'Buy' } });
    const buyBody = shape({ box: [3100, 1400, 5500, 3000], text: { kind: 4, text: 'Six weeks' } });
    const buildHead = shape({ box: [500, 1000, 2900, 1300], text: { kind: 4, text: 'Build' } });
    const buildBody = shape({ box: [500, 1420, 2900, 3000], text: { kind: 4, text: 'Nine months' } });
    const { stream, currentUser: user } = pptDocument({
      slides: [slide(buyHead, buyBody, title('Choice'), buildHead, buildBody)],
    });
    expect(await convert(pptFile(stream, user))).toBe('# Choice\n\nBuild\n\nNine months\n\nBuy\n\nSix weeks\n');
  });

  it('When a numbered list starts at a number or is split into paragraph runs, then it keeps its start and stays one numbered list', async () => {
    /** StyleTextPropAtom paragraph runs of [chars, bullet on] at level 0. */
    const runs = (...spec: Array<[number, boolean]>): Buffer =>
      Buffer.concat(
        spec.map(([chars, on]) => {
          const run = Buffer.alloc(12);
          run.writeUInt32LE(chars, 0);
          run.writeUInt32LE(0x0001, 6);
          run.writeUInt16LE(on ? 1 : 0, 10);
          return run;
        }),
      );
    // "Fourth\rFifth\r" numbered from 4; "Note\r" plain; "Again\r" numbered from 2, then "More\r", a run
    // whose numbering says nothing, which continues it; "Dot" explicitly not numbered: a bullet.
    const text = 'Fourth\rFifth\rNote\rAgain\rMore\rDot';
    const body = shape({
      box: [500, 1000, 5000, 3000],
      text: { kind: 4, text, style: runs([13, true], [5, false], [6, true], [5, true], [4, true]) },
      numbered: [{ start: 4 }, null, { start: 2 }, null, false],
    });
    const { stream, currentUser: user } = pptDocument({ slides: [slide(title('Steps'), body)] });
    expect(await convert(pptFile(stream, user))).toBe(
      '# Steps\n\n4. Fourth\n5. Fifth\n\nNote\n\n2. Again\n3. More\n\n- Dot\n',
    );
  });

  it('When PowerPoint 97 outline text is numbered by the presentation-wide PowerPoint 9 tag, then its list is numbered', async () => {
    const doc = pptDocument({
      slides: [slide(title('Intro')), slide(title('Plan'), shape({ box: [500, 1000, 5000, 2000], outlineRef: 0 }))],
      outline: [[], [{ kind: 1, text: 'Gather data\rAnalyse it' }]],
      outlineNumbered: [{ slide: 1, kind: 1, numbered: [{ start: 1 }] }],
    });
    expect(await convert(pptFile(doc.stream, doc.currentUser))).toBe(
      '# Intro\n\n# Plan\n\n1. Gather data\n2. Analyse it\n',
    );
  });

  it("When a slide's outline title is empty (a TextHeaderAtom without characters), then the body its OutlineTextRefAtom points past it still shows", async () => {
    const doc = pptDocument({
      slides: [
        slide(
          shape({ box: [500, 1000, 5000, 2000], outlineRef: 1 }),
          shape({ box: [500, 3000, 5000, 3400], text: { kind: 4, text: 'Ask questions' } }),
        ),
      ],
      outline: [
        [
          { kind: 0, text: null },
          { kind: 1, text: 'First run\rSecond run' },
        ],
      ],
    });
    expect(await convert(pptFile(doc.stream, doc.currentUser))).toBe(
      '# Slide 1\n\n- First run\n- Second run\n\nAsk questions\n',
    );
  });

  it("When a table cell's text is PowerPoint 97 outline text (an OutlineTextRefAtom), then the cell shows it", async () => {
    const table = group(
      [1000, 1000, 3000, 1400],
      [
        shape({ box: [1000, 1000, 2000, 1200], outlineRef: 0 }, true),
        shape({ box: [2000, 1000, 3000, 1200], outlineRef: 1 }, true),
        cell([1000, 1200, 2000, 1400], 'North'),
        cell([2000, 1200, 3000, 1400], '12'),
      ],
      true,
    );
    const { stream, currentUser: user } = pptDocument({
      slides: [slide(title('Sales'), table)],
      outline: [
        [
          { kind: 4, text: 'Region' },
          { kind: 4, text: 'Units' },
        ],
      ],
    });
    expect(await convert(pptFile(stream, user))).toBe('# Sales\n\n| Region | Units |\n| --- | --- |\n| North | 12 |\n');
  });

  it('When a file was saved incrementally, then the persist directory (found from Current User, or scanned) gives the live slides in presentation order', async () => {
    const one = slide(title('First'));
    const two = slide(title('Second'), shape({ box: [500, 1000, 5000, 2000], outlineRef: 0 }));
    const doc = pptDocument({
      slides: [one, two],
      fileOrder: [1, 0],
      outline: [[], [{ kind: 1, text: 'From the outline' }]],
    });
    // A later save appends a new copy of slide 1 (persist id 2) and a new edit pointing back at the first.
    const edited = slide(title('First, edited'));
    const at = doc.stream.length;
    const edit = persistEdit(new Map([[2, at]]), at + edited.length, doc.lastEdit);
    const stream = Buffer.concat([doc.stream, edited, edit.records]);
    const markdown = await convert(pptFile(stream, currentUser(edit.editOffset)));
    expect(markdown).toBe('# First, edited\n\n# Second\n\n- From the outline\n');
    // Without the Current User stream, the directories found in the stream (later ones winning) say the same.
    expect(await convert(pptFile(stream))).toBe(markdown);
  });
});

describe('PPT embedded charts and worksheets', () => {
  const withObject = (storage: Buffer, progId: string, compress = true): Buffer => {
    const { stream, currentUser: user } = pptDocument({
      slides: [slide(title('Results'), shape({ box: [500, 1000, 5000, 3000], objectId: 7 }))],
      objects: [{ id: 7, progId, storage, compress }],
    });
    return pptFile(stream, user);
  };

  it('When a slide shows an MS Graph chart, then its title, kind, series names and categories become a table', async () => {
    const chart = chartSubstream(
      {
        title: 'Ducks seen',
        kind: 0x1018,
        categories: ['2021', '2022'],
        series: [
          { name: 'Mallard', values: [120, 130.5] },
          { name: 'Teal', values: [80, 95] },
        ],
        cache: true,
      },
      0x8000,
    );
    const storage = workbookStorage(Buffer.concat([bof(0x0005), eof(), chart]));
    expect(await convert(withObject(storage, 'MSGraph.Chart.8'))).toBe(
      '# Results\n\n**Ducks seen**\n\n*Line chart*\n\n|  | Mallard | Teal |\n| --- | --- | --- |\n| 2021 | 120 | 80 |\n| 2022 | 130.5 | 95 |\n',
    );
  });

  it('When an MS Graph 97 chart keeps its data in its datasheet (no cache), then series and categories come from the datasheet', async () => {
    const chart = chartSubstream(
      {
        kind: 0x1019,
        categories: ['Blank', 'Wizard'],
        series: [
          { name: 'East', values: [0.37, 0.25] },
          { name: 'West', values: [0.2, 0.3] },
        ],
        datasheet: true,
      },
      0x8000,
    );
    const storage = workbookStorage(Buffer.concat([bof(0x0005), eof(), chart]));
    expect(await convert(withObject(storage, 'MSGraph.Chart.8'))).toBe(
      '# Results\n\n*Pie chart*\n\n|  | East | West |\n| --- | --- | --- |\n| Blank | 0.37 | 0.2 |\n| Wizard | 0.25 | 0.3 |\n',
    );
  });

  it('When an Excel chart keeps no data cache, then its series come from the worksheet cells its formulas name', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['', 'Units', 'Returns'],
      ['Jan', 10, 1],
      ['Feb', 14, 2],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, sheet, 'Data');
    const xls = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const chart = chartSubstream({
      kind: 0x1017,
      categories: [],
      categoryCells: [1, 2, 0, 0],
      series: [
        { name: '', values: [], cells: { name: [0, 1], values: [1, 2, 1, 1] } },
        { name: '', values: [], cells: { name: [0, 2], values: [1, 2, 2, 2] } },
      ],
    });
    const markdown = await convert(withObject(appendToWorkbook(xls, chart), 'Excel.Chart.8', false));
    expect(markdown).toBe(
      '# Results\n\n*Bar chart*\n\n|  | Units | Returns |\n| --- | --- | --- |\n| Jan | 10 | 1 |\n| Feb | 14 | 2 |\n',
    );
  });

  it('When a slide shows an embedded Excel worksheet, then its cells become a table', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['Item', 'Price'],
        ['Tea', 3],
      ]),
      'Sheet1',
    );
    const xls = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(await convert(withObject(xls, 'Excel.Sheet.8'))).toBe(
      '# Results\n\n| Item | Price |\n| --- | --- |\n| Tea | 3 |\n',
    );
  });

  it('When LibreOffice embeds a chart as an ODF chart document (package_stream), then its title, kind and data become a table', async () => {
    const content =
      '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">' +
      '<office:body><office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>Sales</text:p></chart:title>' +
      '<chart:plot-area><chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3"/></chart:plot-area>' +
      '<table:table table:name="local-table"><table:table-rows>' +
      [
        ['', 'Hardware'],
        ['Q1', '14'],
        ['Q2', '18'],
      ]
        .map(
          (r) =>
            `<table:table-row>${r.map((v) => `<table:table-cell><text:p>${v}</text:p></table:table-cell>`).join('')}</table:table-row>`,
        )
        .join('') +
      '</table:table-rows></table:table></chart:chart></office:chart></office:body></office:document-content>';
    const pkg = Buffer.from(
      zipSync({
        mimetype: strToU8('application/vnd.oasis.opendocument.chart'),
        'content.xml': strToU8(content),
      }),
    );
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, 'package_stream', pkg);
    const storage = Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    expect(await convert(withObject(storage, ''))).toBe(
      '# Results\n\n**Sales**\n\n*Bar chart*\n\n|  | Hardware |\n| --- | --- |\n| Q1 | 14 |\n| Q2 | 18 |\n',
    );
  });

  it('When an embedded object is damaged or not a workbook, then the slide still converts without it', async () => {
    const damaged = withObject(Buffer.from('not zlib at all'), 'MSGraph.Chart.8', false);
    const { stream, currentUser: user } = pptDocument({
      slides: [slide(title('Results'), shape({ box: [500, 1000, 5000, 3000], objectId: 7 }))],
      objects: [{ id: 7, progId: 'Word.Document.8', storage: workbookStorage(record(0, textAtom(4, 'x'))) }],
    });
    expect(await convert(damaged)).toBe('# Results\n');
    expect(await convert(pptFile(stream, user))).toBe('# Results\n');
  });
});
