import CFB from 'cfb';
import * as XLSX from '@e965/xlsx';
import { convertDocument } from '../../src';
import { buildDoc, para } from '../word97';
import { pptFile, record, textAtom, u32 } from '../ppt97';
import { bof, ducksSeenChart, eof, workbookStorage } from '../biff8';

const std = { enhanced: false };

/** A minimal PowerPoint 97 file: one slide (title + two body lines) and its notes, built record by record. */
function samplePpt(): Buffer {
  const slide = record(
    0x03ee,
    record(0xf00d, Buffer.concat([textAtom(0, 'Résumé'), textAtom(1, 'First line\rSecond line')]), true),
    true,
  );
  const notes = record(0x03f0, record(0xf00d, textAtom(2, 'Say hello.'), true), true);
  return pptFile(Buffer.concat([record(0x03e8, Buffer.alloc(0), true), slide, notes]));
}

describe('legacy binary Office', () => {
  it('When a PPT has a slide with a title, body text and notes, then it becomes a titled section with bullets and notes', async () => {
    const { markdown, metadata } = await convertDocument(samplePpt(), 'ppt', std);
    expect(markdown).toBe('# Résumé\n\n- First line\n- Second line\n\n### Notes\n\nSay hello.\n');
    expect(metadata.page_count).toBe(1);
  });

  it('When PPT paragraphs set bullets and levels, and notes name their slides, then lists nest and notes land on their slide', async () => {
    /** A StyleTextPropAtom paragraph run: characters, indent level and (when given) the hasBullet flag. */
    const pf = (chars: number, level: number, bullet?: boolean): Buffer => {
      const head = Buffer.alloc(10);
      head.writeUInt32LE(chars, 0);
      head.writeUInt16LE(level, 4);
      head.writeUInt32LE(bullet === undefined ? 0 : 0x0001, 6);
      return bullet === undefined ? head : Buffer.concat([head, Buffer.from([bullet ? 1 : 0, 0])]);
    };
    const styled = (kind: number, paragraphs: string[], runs: Buffer[]) =>
      Buffer.concat([textAtom(kind, paragraphs.join('\r')), record(0x0fa1, Buffer.concat(runs))]);
    const body = styled(
      1,
      ['Plan', 'First', 'Deeper'],
      [pf(5, 0, false), pf(6, 0), pf(7, 1)], // "Plan" turns the master's bullet off
    );
    const box = styled(4, ['Loose text', 'Marked'], [pf(11, 0), pf(7, 0, true)]);
    const slide = (title: string, ...content: Buffer[]) =>
      record(0x03ee, record(0xf00d, Buffer.concat([textAtom(0, title), ...content]), true), true);
    const notesAtom = (slideId: number) => record(0x03f1, Buffer.concat([u32(slideId), Buffer.alloc(4)]));
    const notes = (slideId: number, text: string) =>
      record(0x03f0, Buffer.concat([notesAtom(slideId), record(0xf00d, textAtom(2, text), true)]), true);
    const persist = (slideId: number) => record(0x03f3, Buffer.concat([u32(0), u32(0), u32(0), u32(slideId), u32(0)]));
    const list = record(0x0ff0, Buffer.concat([persist(256), persist(257)]), true);
    const stream = Buffer.concat([
      record(0x03e8, list, true),
      notes(0x80000000, 'Click to edit Master text styles'),
      slide('One', body, box),
      slide('Two'),
      notes(257, 'Only for slide two.'),
    ]);
    const { markdown } = await convertDocument(pptFile(stream), 'ppt', std);
    expect(markdown).toBe(
      '# One\n\nPlan\n\n- First\n  - Deeper\n\nLoose text\n\n- Marked\n\n# Two\n\n### Notes\n\nOnly for slide two.\n',
    );
  });

  it('When a .ppt or .doc is plain text, then it fails as corrupt, saying what the content is', async () => {
    const kinds = { ppt: 'a presentation', doc: 'a Word document' };
    for (const [ext, kind] of Object.entries(kinds)) {
      await expect(convertDocument(Buffer.from('plain text, not OLE'), ext, std)).rejects.toMatchObject({
        code: 'corrupt_file',
        message: `The file is named .${ext} but is not ${kind}: its content is plain text.`,
      });
    }
  });

  it('When an OLE file has no PowerPoint stream, then the PPT error says so', async () => {
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, 'Other', Buffer.from('x'));
    const input = Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    await expect(convertDocument(input, 'ppt', std)).rejects.toMatchObject({
      message: 'The PPT file has no PowerPoint Document stream.',
    });
  });
});

describe('DOC (Word 97-2003)', () => {
  it('When a paragraph holds an embedded MS Graph chart (an EMBED field naming its ObjectPool storage), then its title, kind and data follow the paragraph instead of its picture', async () => {
    const chart = ducksSeenChart();
    const doc = buildDoc({
      body: [
        {
          runs: [
            { text: 'Counts rose ', object: workbookStorage(Buffer.concat([bof(0x0005), eof(), chart])) },
            { text: 'again.' },
          ],
        },
        para('End.'),
      ],
    });
    const { markdown } = await convertDocument(doc, 'doc', std);
    expect(markdown).toBe(
      'Counts rose again.\n\n**Ducks seen**\n\n*Line chart*\n\n|  | Mallard |\n| --- | --- |\n| 2021 | 120 |\n| 2022 | 130 |\n\nEnd.\n',
    );
  });

  it('When a damaged directory marks the 1Table stream as a storage though it holds data, then the DOC is still read', async () => {
    const doc = buildDoc({ body: [para('Damaged directory text.')] });
    // The directory entry's type byte (offset 66 of its 128 bytes): 2 stream → 1 storage, as fuzzed files have it.
    const name = doc.indexOf(Buffer.from('1Table', 'utf16le'));
    doc[name - (name % 128) + 66] = 1;
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe('Damaged directory text.\n');
  });

  it('When a DOC paragraph in a heading style holds only a picture (a logo), then it is the picture, not a heading', async () => {
    const doc = buildDoc({
      body: [{ runs: [{ text: '', picture: true }], style: 'heading 2' }, para('Clinical Trials Unit', 'heading 1')],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe('![image](#)\n\n# Clinical Trials Unit\n');
  });

  it('When a DOC holds an embedded Word document (its own WordDocument and 1Table under ObjectPool), then the host document is read, not the embedded one', async () => {
    const host = CFB.read(buildDoc({ body: [para('Host letter text.')] }), { type: 'buffer' });
    const embedded = CFB.read(buildDoc({ body: [para('Embedded memo text that is much longer than the host.')] }), {
      type: 'buffer',
    });
    const file = CFB.utils.cfb_new();
    const stream = (cfb: CFB.CFB$Container, name: string): Buffer =>
      Buffer.from(CFB.find(cfb, `/${name}`)!.content as Uint8Array);
    // The embedded object's streams come first in the directory, as Word's ObjectPool does before the root's 1Table.
    CFB.utils.cfb_add(file, '/ObjectPool/_1307178611/WordDocument', stream(embedded, 'WordDocument'));
    CFB.utils.cfb_add(file, '/ObjectPool/_1307178611/1Table', stream(embedded, '1Table'));
    CFB.utils.cfb_add(file, '/WordDocument', stream(host, 'WordDocument'));
    CFB.utils.cfb_add(file, '/1Table', stream(host, '1Table'));
    const bytes = Buffer.from(CFB.write(file, { type: 'buffer' }) as Uint8Array);
    expect((await convertDocument(bytes, 'doc', std)).markdown).toBe('Host letter text.\n');
  });

  it('When an XLS workbook embeds a Word document and a PowerPoint deck (their streams in storages of their own), then it is read as the workbook it is', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Region', 'Sales'],
      ['North', 120],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Figures');
    const host = CFB.read(XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer, { type: 'buffer' });
    const memo = CFB.read(buildDoc({ body: [para('Embedded memo text.')] }), { type: 'buffer' });
    const stream = (cfb: CFB.CFB$Container, name: string): Buffer =>
      Buffer.from(CFB.find(cfb, `/${name}`)!.content as Uint8Array);
    const file = CFB.utils.cfb_new();
    // Excel keeps each embedded object in an MBD… storage beside its own Workbook stream.
    CFB.utils.cfb_add(file, '/MBD00032A24/WordDocument', stream(memo, 'WordDocument'));
    CFB.utils.cfb_add(file, '/MBD00032A24/1Table', stream(memo, '1Table'));
    CFB.utils.cfb_add(file, '/MBD0003271D/PowerPoint Document', samplePpt().subarray(0, 64));
    CFB.utils.cfb_add(file, '/Workbook', stream(host, 'Workbook'));
    const bytes = Buffer.from(CFB.write(file, { type: 'buffer' }) as Uint8Array);
    const { markdown } = await convertDocument(bytes, 'xls', std);
    expect(markdown).toContain('| North | 120 |');
    expect(markdown).not.toContain('Embedded memo text');
  });

  const golden = (localisedStyleNames = false): Buffer =>
    buildDoc({
      title: 'Quarterly notes',
      author: 'José Núñez',
      localisedStyleNames,
      body: [
        para('Annual Report', 'Title'),
        para('Überblick', 'heading 1'),
        {
          runs: [
            { text: 'Plain and ' },
            { text: 'bold', bold: true },
            { text: ' and ' },
            { text: 'italic', italic: true },
            { text: ' with a ' },
            { text: 'link', link: 'https://example.com/a' },
            { text: '.', footnote: 'A note here.' },
          ],
        },
        { runs: [{ text: 'first' }], list: { ordered: false, level: 0 } },
        { runs: [{ text: 'nested' }], list: { ordered: false, level: 1 } },
        { runs: [{ text: 'second' }], list: { ordered: false, level: 0 } },
        { runs: [{ text: 'one' }], list: { ordered: true, level: 0 } },
        { runs: [{ text: 'two' }], list: { ordered: true, level: 0 } },
        para('Details 中文 עברית', 'heading 2'),
        {
          rows: [
            ['Name', 'Qty'],
            ['Äpfel', '3'],
            ['Birnen', ''],
          ],
        },
        para('The end.'),
      ],
    });
  const GOLDEN =
    '# Annual Report\n\n# Überblick\n\nPlain and **bold** and *italic* with a [link](https://example.com/a).[^1]\n\n' +
    '- first\n  - nested\n- second\n\n1. one\n2. two\n\n## Details 中文 עברית\n\n' +
    '| Name | Qty |\n| --- | --- |\n| Äpfel | 3 |\n| Birnen |  |\n\nThe end.\n\n[^1]: A note here.\n';

  it('When a DOC has headings, emphasis, a link, a footnote, nested and numbered lists and a table, then all of it is kept', async () => {
    const { markdown, metadata } = await convertDocument(golden(), 'doc', std);
    expect(markdown).toBe(GOLDEN);
    expect(metadata).toEqual({ title: 'Quarterly notes', author: 'José Núñez', page_count: 0 });
  });

  it('When DOC table cells are merged (a wide cell, Word 97 horizontal and vertical merges), then each merged text repeats over what it covers', async () => {
    // TC80 flags: 0x01 fFirstMerged, 0x02 fMerged, 0x20 fVertMerge, 0x40 fVertRestart.
    const doc = buildDoc({
      body: [
        {
          rows: [
            ['Item', '2025', '2026'],
            ['Staff', '120', '140'],
            ['', '30', '35'],
            ['Licences', '15'],
            ['Travel', 'Fees', '', '8'],
          ],
          spans: [
            [1, 1, 1],
            [1, 1, 1],
            [1, 1, 1],
            [1, 2],
            [1, 0.5, 0.5, 1],
          ],
          flags: [[], [0x60], [0x20], [], [0, 0x01, 0x02]],
        },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      '| Item | 2025 | 2025 | 2026 |\n| --- | --- | --- | --- |\n| Staff | 120 | 120 | 140 |\n| Staff | 30 | 30 | 35 |\n' +
        '| Licences | 15 | 15 | 15 |\n| Travel | Fees | Fees | 8 |\n',
    );
  });

  it("When a DOC table's rows are split at edges that don't line up, then each row keeps its own cells instead of a grid of repeated slivers", async () => {
    // Edges at 2160/4320/6480 against 1080/3240/6480: five grid columns for rows of three cells.
    const doc = buildDoc({
      body: [
        {
          rows: [
            ['Name', 'Maker', 'Price'],
            ['Aligote', 'Basvinex', '31-00'],
          ],
          spans: [
            [1, 1, 1],
            [0.5, 1, 1.5],
          ],
        },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      '| Name | Maker | Price |\n| --- | --- | --- |\n| Aligote | Basvinex | 31-00 |\n',
    );
  });

  it('When DOC paragraphs are in a code style (through its base style too), then each run of them is one code block as typed', async () => {
    const doc = buildDoc({
      styles: [
        { name: 'Source Code', kind: 'paragraph' },
        { name: 'Listing', kind: 'paragraph', basedOn: 'Source Code' },
      ],
      body: [
        para('Run:'),
        para('if (a) {', 'Source Code'),
        para('', 'Listing'),
        { runs: [{ text: '    go();\u000b}' }], style: 'Listing' },
        para('Done.'),
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'Run:\n\n```\nif (a) {\n\n    go();\n}\n```\n\nDone.\n',
    );
  });

  it("When a DOC has reviewers' comments, then each is a note c1, c2… saying who wrote it, after the footnotes", async () => {
    const doc = buildDoc({
      body: [
        {
          runs: [
            { text: 'The roof was inspected.', comment: { author: 'Kim Lee', text: 'Check the date.' } },
            { text: ' Two tiles broke.', footnote: 'Replaced.' },
            { text: ' Done.', comment: { author: 'Ana Ruiz', text: 'Agreed.' } },
          ],
        },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'The roof was inspected.[^c1] Two tiles broke.[^1] Done.[^c2]\n\n[^1]: Replaced.\n\n' +
        '[^c1]: Comment by Kim Lee: Check the date.\n\n[^c2]: Comment by Ana Ruiz: Agreed.\n',
    );
  });

  it('When a DOC paragraph anchors text boxes, then their text follows that paragraph, in its own paragraphs', async () => {
    const doc = buildDoc({
      body: [
        { runs: [{ text: 'Before.' }] },
        {
          runs: [
            { text: 'Roof', textBox: 'Boxed remark: gutters.' },
            { text: ' inspected.', textBox: 'Second box.' },
          ],
        },
        { runs: [{ text: 'After.' }] },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'Before.\n\nRoof inspected.\n\nBoxed remark: gutters.\n\nSecond box.\n\nAfter.\n',
    );
  });

  it('When a DOC has tracked deletions, then deleted words and a deleted paragraph are left out and insertions kept', async () => {
    const doc = buildDoc({
      body: [
        {
          runs: [
            { text: 'Delivery within ' },
            { text: 'thirty', deleted: true },
            { text: 'fourteen' },
            { text: ' days.' },
            { text: ' Late payments carry no interest.', deleted: true },
          ],
        },
        { runs: [{ text: 'This clause was removed.', deleted: true }], markDeleted: true },
        para('Warranty', 'heading 2'),
        para('Defects must be reported in writing.'),
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'Delivery within fourteen days.\n\n## Warranty\n\nDefects must be reported in writing.\n',
    );
  });

  it('When DOC headings are numbered by a multi-level list, then each heading carries the number Word draws on it', async () => {
    const doc = buildDoc({
      body: [
        { runs: [{ text: 'Introduction' }], style: 'heading 1', list: { ordered: true, level: 0 } },
        para('Plan.'),
        { runs: [{ text: 'Scope' }], style: 'heading 2', list: { ordered: true, level: 1 } },
        { runs: [{ text: 'Timeline' }], style: 'heading 2', list: { ordered: true, level: 1 } },
        { runs: [{ text: 'Risks' }], style: 'heading 1', list: { ordered: true, level: 0 } },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      '# 1. Introduction\n\nPlan.\n\n## 1.1. Scope\n\n## 1.2. Timeline\n\n# 2. Risks\n',
    );
  });

  it('When a DOC heading is bold on every run (LibreOffice sets it directly), then the heading is plain and bold on part of one stays', async () => {
    const doc = buildDoc({
      body: [
        { runs: [{ text: 'Introduction', bold: true }], style: 'heading 1' },
        { runs: [{ text: 'Part', bold: true }, { text: ' two' }], style: 'heading 2' },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe('# Introduction\n\n## **Part** two\n');
  });

  it('When a DOC table cell holds a nested table, then the outer table keeps its rows and the cell holds the inner text', async () => {
    const doc = buildDoc({
      body: [
        {
          rows: [
            ['Room', 'Equipment'],
            ['Boardroom', 'Available items:'],
            ['Studio', 'None'],
          ],
          nested: {
            row: 1,
            col: 1,
            rows: [
              ['Projector', '1'],
              ['Chairs', '12'],
            ],
          },
        },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      '| Room | Equipment |\n| --- | --- |\n| Boardroom | Available items: Projector 1 Chairs 12 |\n| Studio | None |\n',
    );
  });

  it("When DOC numbered lists start at a set number, count on past a paragraph and restart, then they show Word's numbers", async () => {
    const doc = buildDoc({
      body: [
        para('Steps:'),
        { runs: [{ text: 'alpha' }], list: { ordered: true, level: 0, start: 4 } },
        { runs: [{ text: 'beta' }], list: { ordered: true, level: 0, start: 4 } },
        { runs: [{ text: 'beta one' }], list: { ordered: true, level: 1, start: 4 } },
        para('Between the items.'),
        { runs: [{ text: 'gamma' }], list: { ordered: true, level: 0, start: 4 } },
        para('A list restarted at 1:'),
        { runs: [{ text: 'again' }], list: { ordered: true, level: 0, start: 4, restartAt: 1 } },
        { runs: [{ text: 'more' }], list: { ordered: true, level: 0, start: 4, restartAt: 1 } },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'Steps:\n\n4. alpha\n5. beta\n   4. beta one\n\nBetween the items.\n\n6. gamma\n\nA list restarted at 1:\n\n1. again\n2. more\n',
    );
  });

  it('When DOC runs are raised or lowered (sprmCIss), then <sup>/<sub> are kept and a raised note mark stays a reference', async () => {
    const input = buildDoc({
      body: [
        {
          runs: [
            { text: 'x' },
            { text: '2', position: 'super' },
            { text: ' and H' },
            { text: '2', position: 'sub' },
            { text: 'O, ' },
            { text: 'm', bold: true },
            { text: '3', bold: true, position: 'super' },
            { text: ' claim' },
            { text: '', position: 'super', footnote: 'Source.' },
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('x<sup>2</sup> and H<sub>2</sub>O, **m<sup>3</sup>** claim[^1]\n\n[^1]: Source.\n');
  });

  it('When a DOC footnote has two paragraphs, then the note keeps both, the second indented under the first', async () => {
    const input = buildDoc({ body: [{ runs: [{ text: 'Claim', footnote: 'First part.\rSecond *part*.' }] }] });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('Claim[^1]\n\n[^1]: First part.\n\n    Second \\*part\\*.\n');
  });

  it('When the heading styles have localised names, then headings still come from the built-in style ids', async () => {
    const { markdown } = await convertDocument(golden(true), 'doc', std);
    expect(markdown).toBe(GOLDEN);
  });

  it('When user paragraph styles carry localised heading names (a DOCX heading style saved as DOC), then they are headings of their number', async () => {
    const input = buildDoc({
      styles: [
        { name: 'Titre 2', kind: 'paragraph', bold: true },
        { name: 'Überschrift 3', kind: 'paragraph', bold: true },
      ],
      body: [para('Méthode', 'Titre 2'), para('Ablauf', 'Überschrift 3'), para('Text.')],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('## Méthode\n\n### Ablauf\n\nText.\n');
  });

  it('When a DOC has no text, then the Markdown is empty', async () => {
    const { markdown } = await convertDocument(buildDoc({ body: [] }), 'doc', std);
    expect(markdown).toBe('');
  });

  it('When a DOC is marked encrypted, then it fails with encrypted_file', async () => {
    const input = buildDoc({ body: [para('secret')], encryptedFlag: true });
    await expect(convertDocument(input, 'doc', std)).rejects.toMatchObject({ code: 'encrypted_file' });
  });

  it('When a password-protected DOCX holds the zero-filled WordDocument stream Word 2007 writes beside its EncryptedPackage, then it fails with encrypted_file', async () => {
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, 'WordDocument', Buffer.alloc(4096));
    CFB.utils.cfb_add(cfb, 'EncryptionInfo', Buffer.alloc(64));
    CFB.utils.cfb_add(cfb, 'EncryptedPackage', Buffer.alloc(4096));
    const input = Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    for (const ext of ['docx', 'doc']) {
      await expect(convertDocument(input, ext, std)).rejects.toMatchObject({
        code: 'encrypted_file',
        message: 'The document is password-protected; remove the password and try again.',
      });
    }
  });

  it('When an OLE file has no WordDocument stream, then the DOC error says so', async () => {
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, 'Other', Buffer.from('x'));
    const input = Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
    await expect(convertDocument(input, 'doc', std)).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it('When a DOC paragraph style is bold through its base style, then its runs are strong and a run with bold turned off is plain', async () => {
    const input = buildDoc({
      styles: [
        { name: 'Loud', kind: 'paragraph', bold: true },
        { name: 'Louder', kind: 'paragraph', basedOn: 'Loud' },
      ],
      body: [{ runs: [{ text: 'Warning: ' }, { text: 'read this', bold: false }], style: 'Louder' }],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('**Warning:** read this\n');
  });

  it('When DOC runs use character styles that are italic (through a base style) or superscript, then they are emphasised or raised', async () => {
    const input = buildDoc({
      styles: [
        { name: 'Slant', kind: 'character', italic: true },
        { name: 'Term', kind: 'character', basedOn: 'Slant' },
        { name: 'Exponent', kind: 'character', position: 'super' },
      ],
      body: [
        { runs: [{ text: 'A ' }, { text: 'term', style: 'Term' }, { text: ', e' }, { text: 'x', style: 'Exponent' }] },
      ],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('A *term*, e<sup>x</sup>\n');
  });

  it("When DOC runs use a code character style (LibreOffice's Source Text, one based on Verbatim Char), then they are inline code with their spaces", async () => {
    const input = buildDoc({
      styles: [
        { name: 'Source Text', kind: 'character' },
        { name: 'Verbatim Char', kind: 'character' },
        { name: 'KeywordTok', kind: 'character', basedOn: 'Verbatim Char', bold: true },
      ],
      body: [
        {
          runs: [
            { text: 'Run ' },
            { text: 'fixctl  --audit', style: 'Source Text' },
            { text: ' then ' },
            { text: 'def', style: 'KeywordTok' },
            { text: '.' },
          ],
        },
      ],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('Run `fixctl  --audit` then **`def`**.\n');
  });

  it("When DOC paragraphs are in List Heading / List Contents and Quotations styles (LibreOffice's DOC of a web page), then they are a definition list and a quote without the style's italic", async () => {
    const input = buildDoc({
      styles: [
        { name: 'List Heading', kind: 'paragraph' },
        { name: 'List Contents', kind: 'paragraph' },
        { name: 'Quotations', kind: 'paragraph', italic: true },
      ],
      body: [
        { runs: [{ text: 'Planned work costs less.' }], style: 'Quotations' },
        { runs: [{ text: 'Boiler' }], style: 'List Heading' },
        { runs: [{ text: 'A closed vessel.' }], style: 'List Contents' },
        { runs: [{ text: 'After.' }] },
      ],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('> Planned work costs less.\n\n- **Boiler**\n  - A closed vessel.\n\nAfter.\n');
  });

  it('When a DOC bold character style is used in a bold paragraph style, then the toggle rule leaves that run plain', async () => {
    const input = buildDoc({
      styles: [
        { name: 'Loud', kind: 'paragraph', bold: true },
        { name: 'Stress', kind: 'character', bold: true },
      ],
      body: [{ runs: [{ text: 'Bold ' }, { text: 'not', style: 'Stress' }], style: 'Loud' }],
    });
    const { markdown } = await convertDocument(input, 'doc', std);
    expect(markdown).toBe('**Bold** not\n');
  });
});

describe('DOC (Word 6.0/95)', () => {
  /**
   * A Word 6/95 WordDocument stream: the FIB (FibBase, FibRgLw95's counts, the fc/lcb pairs) and
   * 8-bit text from fcMin, or, when `pieces` are given, a fast-saved file whose clx (at 0x160) maps
   * character ranges to where they are stored.
   */
  function word6Stream(opts: {
    bytes: Buffer;
    ccpText: number;
    ccpFtn?: number;
    pieces?: Array<{ cpStart: number; cpEnd: number; at: number }>;
    mac?: boolean;
  }): Buffer {
    const fcMin = 0x200;
    const fib = Buffer.alloc(fcMin);
    fib.writeUInt16LE(0xa5dc, 0);
    fib.writeUInt16LE(0x65, 2);
    fib.writeUInt16LE(opts.pieces ? 0x0004 : 0, 0x0a);
    fib[0x12] = opts.mac ? 1 : 0;
    fib.writeUInt32LE(fcMin, 0x18);
    fib.writeUInt32LE(fcMin + opts.bytes.length, 0x1c);
    fib.writeInt32LE(opts.ccpText, 0x34);
    fib.writeInt32LE(opts.ccpFtn ?? 0, 0x38);
    const parts = [fib, opts.bytes];
    if (opts.pieces) {
      const n = opts.pieces.length;
      const plc = Buffer.alloc((n + 1) * 4 + n * 8);
      opts.pieces.forEach((p, i) => {
        plc.writeUInt32LE(p.cpStart, i * 4);
        plc.writeUInt32LE(p.cpEnd, (i + 1) * 4);
        plc.writeUInt32LE(fcMin + p.at, (n + 1) * 4 + i * 8 + 2);
      });
      const head = Buffer.alloc(5);
      head[0] = 0x02;
      head.writeUInt32LE(plc.length, 1);
      const fcClx = fcMin + opts.bytes.length;
      fib.writeUInt32LE(fcClx, 0x160);
      fib.writeUInt32LE(plc.length + 5, 0x164);
      parts.push(head, plc);
    }
    return Buffer.concat(parts);
  }
  const word6File = (stream: Buffer): Buffer => {
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, '/WordDocument', stream);
    return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
  };
  const convertDoc = async (file: Buffer): Promise<string> => (await convertDocument(file, 'doc', std)).markdown;

  it('When a DOC is a Word 6/95 document, then its paragraphs and footnotes come out, field codes, cell marks and tab alignment left out', async () => {
    const body = 'Café menu\r\u0013 PAGE \u00142\u0015 Soup\tdu jour\u0007Bread\u0007\u0007Price\u00a0list\u0002\r';
    const note = '\u0002 Served until noon.\r';
    const bytes = Buffer.from(body + note, 'latin1');
    const markdown = await convertDoc(word6File(word6Stream({ bytes, ccpText: body.length, ccpFtn: note.length })));
    expect(markdown).toBe('Café menu\n\n2 Soup du jour\n\nBread\n\nPrice list\n\n---\n\nServed until noon.\n');
  });

  /**
   * Word 6's property pages for `paragraphs` (each its text with its mark, istd and one-byte sprms),
   * a style sheet (Normal, "heading 1" as sti 1) and character runs (`bold` ranges of the text),
   * and footnote tables when the text has a reference mark (\u0002): a WordDocument stream as Word 6 writes one.
   */
  function structuredWord6(
    paragraphs: Array<{ text: string; istd?: number; sprms?: number[] }>,
    bold: string,
    note: string,
  ): Buffer {
    const fcMin = 0x200;
    const body = paragraphs.map((p) => p.text).join('');
    const text = Buffer.from(body + note, 'latin1');
    const page = (n: number): number => Math.ceil((fcMin + text.length) / 512) + n;
    // PAPX FKP: rgfc, 7-byte BXs (offset in words, PHE), PAPXs (cw, istd, grpprl) from the page's end.
    const papx = Buffer.alloc(512);
    let fc = fcMin;
    let free = 510;
    papx.writeUInt32LE(fc, 0);
    paragraphs.forEach((p, i) => {
      fc += p.text.length;
      papx.writeUInt32LE(fc, (i + 1) * 4);
      const grpprl = Buffer.from(p.sprms ?? []);
      const cw = Math.ceil((2 + grpprl.length) / 2);
      free -= cw * 2 + 2;
      papx[free] = cw;
      papx.writeUInt16LE(p.istd ?? 0, free + 1);
      grpprl.copy(papx, free + 3);
      papx[(paragraphs.length + 1) * 4 + i * 7] = free / 2;
    });
    papx[511] = paragraphs.length;
    // CHPX FKP: plain, the bold words, plain.
    const chpx = Buffer.alloc(512);
    const boldAt = fcMin + body.indexOf(bold);
    [fcMin, boldAt, boldAt + bold.length, fcMin + body.length].forEach((f, i) => chpx.writeUInt32LE(f, i * 4));
    chpx[16 + 1] = 250;
    chpx[500] = 2;
    chpx[501] = 85;
    chpx[502] = 1;
    chpx[511] = 3;
    const bin = (first: number, last: number, pn: number): Buffer => {
      const plc = Buffer.alloc(10);
      plc.writeUInt32LE(first, 0);
      plc.writeUInt32LE(last, 4);
      plc.writeUInt16LE(pn, 8);
      return plc;
    };
    // STSH: cbStshi 4 (cstd 2, cbSTDBaseInFile 8), Normal as an empty STD, then "heading 1" (sti 1).
    const name = Buffer.from('\u0009heading 1\u0000', 'latin1');
    const std = Buffer.concat([Buffer.from([1, 0, 0x01, 0, 0, 0, 0, 0]), name]);
    const stsh = Buffer.concat([Buffer.from([4, 0, 2, 0, 8, 0, 0, 0]), Buffer.from([std.length, 0]), std]);
    const refCp = body.indexOf('\u0002');
    const fndRef = Buffer.alloc(10);
    fndRef.writeUInt32LE(refCp, 0);
    fndRef.writeUInt32LE(body.length, 4);
    fndRef.writeUInt16LE(1, 8);
    const fndTxt = Buffer.alloc(8);
    fndTxt.writeUInt32LE(note.length, 4);
    const tables: Array<[number, Buffer]> = [
      [1, stsh],
      ...(refCp >= 0
        ? ([
            [2, fndRef],
            [3, fndTxt],
          ] as Array<[number, Buffer]>)
        : []),
      [12, bin(fcMin, fcMin + body.length, page(1))],
      [13, bin(fcMin, fcMin + body.length, page(0))],
    ];
    const fib = Buffer.alloc(fcMin);
    fib.writeUInt16LE(0xa5dc, 0);
    fib.writeUInt16LE(0x65, 2);
    fib.writeUInt32LE(fcMin, 0x18);
    fib.writeUInt32LE(fcMin + text.length, 0x1c);
    fib.writeInt32LE(body.length, 0x34);
    fib.writeInt32LE(note.length, 0x38);
    const pages = Buffer.concat([text, Buffer.alloc(page(0) * 512 - fcMin - text.length), papx, chpx]);
    let at = fcMin + pages.length;
    for (const [index, data] of tables) {
      fib.writeUInt32LE(at, 0x58 + index * 8);
      fib.writeUInt32LE(data.length, 0x58 + index * 8 + 4);
      at += data.length;
    }
    return Buffer.concat([fib, pages, ...tables.map(([, data]) => data)]);
  }

  it('When a Word 6/95 DOC has a heading style, a table, numbered and bulleted paragraphs, bold runs and a footnote, then they come out as such', async () => {
    const inTable = [24, 1];
    const anld = (nfc: number): number[] => [12, 4, nfc, 0, 0, 0];
    const stream = structuredWord6(
      [
        { text: 'Menu\r', istd: 1 },
        { text: 'Soup\u0007', sprms: inTable },
        { text: 'Bread\u0007', sprms: inTable },
        { text: '\u0007', sprms: [...inTable, 25, 1] },
        { text: 'Tea\u0007', sprms: inTable },
        { text: 'Milk\u0007', sprms: inTable },
        { text: '\u0007', sprms: [...inTable, 25, 1] },
        { text: 'First\r', sprms: [13, 10, ...anld(0)] },
        { text: 'Second\r', sprms: [13, 10, ...anld(0)] },
        { text: 'Apples\r', sprms: [13, 11, ...anld(23)] },
        { text: 'Served hot\u0002\r' },
      ],
      'hot',
      '\u0002 Until noon.\r',
    );
    expect(await convertDoc(word6File(stream))).toBe(
      '# Menu\n\n| Soup | Bread |\n| --- | --- |\n| Tea | Milk |\n\n1. First\n2. Second\n\n- Apples\n\nServed **hot**[^1]\n\n[^1]: Until noon.\n',
    );
  });

  it('When a Word 6/95 DOC has a style sheet cut short, then its text is still read, as paragraphs', async () => {
    const bytes = Buffer.from('Agenda\rMinutes\r', 'latin1');
    const stream = word6Stream({ bytes, ccpText: bytes.length });
    // The style sheet (fc/lcb pair 1) points at five bytes: too few for its header.
    stream.writeUInt32LE(0x200, 0x60);
    stream.writeUInt32LE(5, 0x64);
    expect(await convertDoc(word6File(stream))).toBe('Agenda\n\nMinutes\n');
  });

  it('When a Word 6/95 DOC was fast-saved (a piece table) or written on a Macintosh, then its text is read in piece order and in Mac Roman', async () => {
    // "Second part\r" is stored before "First part l\x8Eg\x8Fre\r" (Mac Roman é and è at 0x8E, 0x8F).
    const first = Buffer.from('First part l\u008eg\u008fre\r', 'latin1');
    const second = Buffer.from('Second part\r', 'latin1');
    const stream = word6Stream({
      bytes: Buffer.concat([second, first]),
      ccpText: first.length + second.length,
      mac: true,
      pieces: [
        { cpStart: 0, cpEnd: first.length, at: second.length },
        { cpStart: first.length, cpEnd: first.length + second.length, at: 0 },
      ],
    });
    expect(await convertDoc(word6File(stream))).toBe('First part légère\n\nSecond part\n');
  });
});

describe('DOC lists typed as text', () => {
  it('When paragraphs open with a typed bullet and a tab, then they are a list without the bullets', async () => {
    const doc = buildDoc({ body: [para('Pack:'), para('\u2022\tTent'), para('\u2022\tStove'), para('Go.')] });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe('Pack:\n\n- Tent\n- Stove\n\nGo.\n');
  });
});

describe('DOC symbol fonts', () => {
  it('When symbols are inserted (a special "(" with sprmCSymbol) or text is typed in Symbol or Wingdings, then the characters they draw are read, not "(" or Latin letters', async () => {
    const doc = buildDoc({
      body: [
        {
          runs: [
            { text: 'x ', symbol: { font: 'Symbol', char: 0xf0b3 } },
            { text: ' 5, ' },
            { text: 'a+b', font: 'Symbol' },
            { text: ', done ', symbol: { font: 'Wingdings', char: 0xf0fc } },
            { text: ', to ', symbol: { font: 'Arial', char: 0x2192 } },
            { text: ' the end', symbol: { font: 'Webdings', char: 0xf021 } },
            { text: '.' },
          ],
        },
        { runs: [{ text: '§', font: 'Wingdings' }, { text: '\tTent' }] },
        { runs: [{ text: '§', font: 'Wingdings' }, { text: '\tStove' }] },
      ],
    });
    expect((await convertDocument(doc, 'doc', std)).markdown).toBe(
      'x ≥ 5, α+β, done ✓, to → the end.\n\n- Tent\n- Stove\n',
    );
  });
});
