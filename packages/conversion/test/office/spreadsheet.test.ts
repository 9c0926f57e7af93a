import { createHash } from 'node:crypto';
import CFB from 'cfb';
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';
import { convertDocument } from '../../src';
import { MAX_SPREAD_CHARS, tableRegions } from '../../src/readers/shared/sheet-grid';
import { biff, chartSubstream, embedInSheet, noteRecords } from '../biff8';
import { CHARTEX_REL, chartExGraphic, chartExPart } from '../chartex';

const std = { enhanced: false };

/** One sheet named Data written as xlsx, xls and ods by SheetJS, each converted: format → Markdown. */
async function markdownInEachFormat(cells: unknown[][]): Promise<Record<string, string>> {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(cells), 'Data');
  const out: Record<string, string> = {};
  for (const bookType of ['xlsx', 'xls', 'ods'] as const) {
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
    out[bookType] = (await convertDocument(input, bookType, std)).markdown;
  }
  return out;
}

const inEachFormat = (markdown: string) => ({ xlsx: markdown, xls: markdown, ods: markdown });

/** An ODS package written by hand: its content.xml's body (`<office:spreadsheet>`'s sheets) and automatic styles, in namespaces `ns`. */
function odsPackage(ns: string, sheets: string, styles = ''): Buffer {
  const content =
    `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:automatic-styles>${styles}</office:automatic-styles>` +
    `<office:body><office:spreadsheet>${sheets}</office:spreadsheet></office:body></office:document-content>`;
  return Buffer.from(
    zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
      'content.xml': strToU8(content),
      'styles.xml': strToU8(`<office:document-styles ${ns}/>`),
      'META-INF/manifest.xml': strToU8(
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ),
    }),
  );
}

/** One sheet, "Stock", of two rows: the workbook the note and package tests build on. */
/** RC4's key stream of `length` bytes (written here apart from the reader's, to encrypt fixtures). */
function rc4KeyStream(key: Buffer, length: number): Buffer {
  const s = [...Array(256).keys()];
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) % 256;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(length);
  let a = 0;
  let b = 0;
  for (let n = 0; n < length; n++) {
    a = (a + 1) % 256;
    b = (b + s[a]!) % 256;
    [s[a], s[b]] = [s[b]!, s[a]!];
    out[n] = s[(s[a]! + s[b]!) % 256]!;
  }
  return out;
}

/**
 * The workbook as an XLS RC4-encrypted with `password` as Excel does (MS-XLS 2.2.10, MS-OFFCRYPTO 2.3.6):
 * a FilePass record after the globals' BOF, each record body after it encrypted with a key per 1024-byte
 * block of the stream, BOF records and a BoundSheet8's stream position left in clear.
 */
function rc4EncryptedXls(wb: XLSX.WorkBook, password: string): Buffer {
  const md5 = (data: Buffer) => createHash('md5').update(data).digest();
  const salt = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const truncated = md5(Buffer.from(password, 'utf16le')).subarray(0, 5);
  const keyDigest = md5(Buffer.concat(Array(16).fill(Buffer.concat([truncated, salt])))).subarray(0, 5);
  const blockKey = (block: number) => {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(block);
    return md5(Buffer.concat([keyDigest, n]));
  };
  const verifier = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex');
  const sealed = Buffer.concat([verifier, md5(verifier)]);
  const encryptedVerifier = Buffer.from(sealed.map((v, i) => v ^ rc4KeyStream(blockKey(0), 32)[i]!));
  const filePass = Buffer.alloc(58);
  filePass.writeUInt16LE(0x002f, 0);
  filePass.writeUInt16LE(54, 2);
  filePass.writeUInt16LE(1, 4);
  filePass.writeUInt16LE(1, 6);
  filePass.writeUInt16LE(1, 8);
  salt.copy(filePass, 10);
  encryptedVerifier.copy(filePass, 26);
  const cfb = CFB.read(Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xls' })), { type: 'buffer' });
  const entry = CFB.find(cfb, 'Workbook')!;
  const plain = Buffer.from(entry.content as Uint8Array);
  const firstRecordEnd = 4 + plain.readUInt16LE(2);
  const stream = Buffer.concat([plain.subarray(0, firstRecordEnd), filePass, plain.subarray(firstRecordEnd)]);
  for (let at = firstRecordEnd + filePass.length; at + 4 <= stream.length; at += 4 + stream.readUInt16LE(at + 2)) {
    const type = stream.readUInt16LE(at);
    let from = at + 4;
    // BOF, FileLock, InterfaceHdr, RRDInfo, RRDHead and UsrExcl stay in clear.
    if ([0x0809, 0x0194, 0x0195, 0x00e1, 0x0196, 0x0138].includes(type)) continue;
    if (type === 0x0085) {
      stream.writeUInt32LE(stream.readUInt32LE(from) + filePass.length, from);
      from += 4;
    }
    for (let i = from; i < at + 4 + stream.readUInt16LE(at + 2); i++) {
      stream[i] = stream[i]! ^ rc4KeyStream(blockKey(Math.floor(i / 1024)), 1024)[i % 1024]!;
    }
  }
  entry.content = stream;
  entry.size = stream.length;
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

function stockWorkbook(): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    wb,
    XLSX.utils.aoa_to_sheet([
      ['Item', 'Qty'],
      ['Pens', 3],
    ]),
    'Stock',
  );
  return wb;
}

describe('spreadsheets', () => {
  it('When an ods sheet is hidden by its table style (display false), then it is left out like a hidden xlsx sheet', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Shown']]), 'A & B');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Secret']]), 'Hidden & Co');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Last']]), 'Last');
    const files = unzipSync(Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'ods' })));
    const hiddenStyle =
      '<style:style style:name="taHidden" style:family="table"><style:table-properties table:display="false"/></style:style>';
    files['content.xml'] = strToU8(
      new TextDecoder()
        .decode(files['content.xml'])
        .replace('<office:automatic-styles>', `<office:automatic-styles>${hiddenStyle}`)
        .replace(
          'table:name="Hidden &amp; Co" table:style-name="ta1"',
          'table:name="Hidden &amp; Co" table:style-name="taHidden"',
        ),
    );
    const { markdown, metadata } = await convertDocument(Buffer.from(zipSync(files)), 'ods', std);
    expect(markdown).toBe('## A & B\n\n| Shown |\n| --- |\n\n## Last\n\n| Last |\n| --- |\n');
    expect(metadata.page_count).toBe(3);
  });

  it('When a cell holds the formula TRUE() or FALSE() over a number (how LibreOffice keeps a boolean), then it reads TRUE or FALSE', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Order', 'Paid'],
      ['A-1', { t: 'n', v: 1, f: 'TRUE()', z: 'yyyy-mm-dd' }],
      ['A-2', { t: 'n', v: 0, f: 'FALSE()', z: 'yyyy-mm-dd' }],
      ['A-3', { t: 'n', v: 42, f: 'SUM(40,2)' }],
    ]);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, sheet, 'Data');
    for (const bookType of ['xlsx', 'ods'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(
        '## Data\n\n| Order | Paid |\n| --- | --- |\n| A-1 | TRUE |\n| A-2 | FALSE |\n| A-3 | 42 |\n',
      );
    }
  });

  it('When xlsx formulas have no cached values (a workbook exceljs or openpyxl wrote), then simple ones are computed in their cell format and the rest show the formula', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Orders');
    ws.addRow(['Item', 'Qty', 'Price', 'Total']);
    ws.addRow(['Widget', 4, 2.5, { formula: 'B2*C2' }]);
    ws.addRow(['Gadget', 10, 1.25, { formula: 'B3*C3' }]);
    ws.addRow(['Sum', { formula: 'SUM(B2:B3)' }, { formula: 'ROUND(AVERAGE(C2:C3),1)' }, { formula: 'D2+D3' }]);
    ws.addRow([
      'Share',
      { formula: '-(B2/B4)%*100' },
      { formula: 'MAX(C2:C3)-MIN(C2:C3)^2' },
      { formula: 'COUNTA(A1:A4)' },
    ]);
    ws.addRow(['Label', { formula: 'A2&" x"&B2' }, { formula: 'VLOOKUP(A2,A1:D3,2,FALSE)' }, { formula: 'Other!A1' }]);
    for (const r of [2, 3, 4]) ws.getCell(`D${r}`).numFmt = '"$"#,##0.00';
    ws.getCell('B5').numFmt = '0.0%';
    wb.addWorksheet('Other').addRow([7]);
    const input = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Orders\n\n| Item | Qty | Price | Total |\n| --- | --- | --- | --- |\n| Widget | 4 | 2.5 | $10.00 |\n' +
        '| Gadget | 10 | 1.25 | $12.50 |\n| Sum | 14 | 1.9 | $22.50 |\n| Share | -28.6% | 0.9375 | 4 |\n' +
        '| Label | Widget x4 | =VLOOKUP(A2,A1:D3,2,FALSE) | =Other!A1 |\n\n## Other\n\n| 7 |\n| --- |\n',
    );
  });

  it('When uncached formulas run down a column (running totals, a chain through the cell above) or cite each other in a cycle, then each is computed once or shown as a formula', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Ledger');
    const rows = 1000;
    for (let r = 1; r <= rows; r++)
      ws.addRow([r, { formula: `SUM(A$1:A${r})` }, r === 1 ? { formula: 'A1' } : { formula: `C${r - 1}+A${r}` }]);
    ws.getCell('D1').value = { formula: 'D2' } as ExcelJS.CellFormulaValue;
    ws.getCell('D2').value = { formula: 'D1' } as ExcelJS.CellFormulaValue;
    ws.getCell('E1').value = { formula: 'F9' } as ExcelJS.CellFormulaValue;
    const input = Buffer.from(await wb.xlsx.writeBuffer());
    const lines = (await convertDocument(input, 'xlsx', std)).markdown.split('\n');
    expect(lines[2]).toBe('| 1 | 1 | 1 | =D2 | 0 |');
    expect(lines[4]).toBe('| 2 | 3 | 3 | =D1 |  |');
    expect(lines[rows + 2]).toBe(`| ${rows} | ${(rows * (rows + 1)) / 2} | ${(rows * (rows + 1)) / 2} |  |  |`);
  });

  it('When an ods sheet holds a chart object, then the chart follows its sheet as title, kind and table', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['Month', 'Visits'],
        ['May', 5],
      ]),
      'Traffic & Co',
    );
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Other']]), 'Other');
    const files = unzipSync(Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'ods' })));
    const content = new TextDecoder().decode(files['content.xml']);
    const start = content.match(/<table:table [^>]*table:name="Traffic &amp; Co"[^>]*>/)![0];
    files['content.xml'] = strToU8(
      content.replace(
        start,
        `${start}<table:shapes><draw:frame xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"><draw:object xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="./Object 1"/></draw:frame></table:shapes>`,
      ),
    );
    const cell = (v: string) => `<table:table-cell><text:p>${v}</text:p></table:table-cell>`;
    const row = (...v: string[]) => `<table:table-row>${v.map(cell).join('')}</table:table-row>`;
    files['Object 1/content.xml'] = strToU8(
      '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0">' +
        '<office:body><office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>Visits by month</text:p></chart:title>' +
        '<chart:plot-area><chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3"/></chart:plot-area>' +
        `<table:table table:name="local-table"><table:table-header-rows>${row('', 'Visits')}</table:table-header-rows>` +
        `<table:table-rows>${row('May', '5')}${row('June', '8')}</table:table-rows></table:table></chart:chart></office:chart></office:body></office:document-content>`,
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'ods', std);
    expect(markdown).toBe(
      '## Traffic & Co\n\n| Month | Visits |\n| --- | --- |\n| May | 5 |\n\n**Visits by month**\n\n*Bar chart*\n\n' +
        '|  | Visits |\n| --- | --- |\n| May | 5 |\n| June | 8 |\n\n## Other\n\n| Other |\n| --- |\n',
    );
  });

  it('When an xlsx cell has a threaded comment with a reply, then both are listed in order', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Total'], [7]]);
    ws.A2!.c = [
      { a: 'Ann Lee', t: 'Too low?', T: true },
      { a: 'Bo Park', t: 'Agreed', T: true },
    ];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Sum');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Sum\n\n| Total |\n| --- |\n| 7 |\n\n### Comments\n\nComment by Ann Lee on A2: Too low?\n\nComment by Bo Park on A2: Agreed\n',
    );
  });

  it('When cells carry comments, then they follow the sheet under Comments with author and cell, escaped', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Item', 'Qty'],
      ['Pens', 3],
    ]);
    ws.B2!.c = [{ a: 'Ann Lee', t: 'Check | this *count*' }];
    ws.A2!.c = [{ a: 'Bo Park', t: 'Counted   twice\nalready' }];
    ws.A1!.c = [{ a: 'Ann Lee', t: 'Header?' }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Stock');
    const table = '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n### Comments\n\n';
    for (const bookType of ['xlsx', 'xls'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(
        `${table}Comment by Ann Lee on A1: Header?\n\nComment by Bo Park on A2: Counted twice already\n\nComment by Ann Lee on B2: Check | this \\*count\\*\n`,
      );
    }
    // SheetJS writes ODS annotations without their author; the reader keeps what is there.
    const ods = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'ods' }));
    expect((await convertDocument(ods, 'ods', std)).markdown).toContain(
      '### Comments\n\nComment on A1: Header?\n\nComment on A2: Counted twice already\n\nComment on B2: Check | this \\*count\\*',
    );
  });

  it('When an xls note holds characters past Latin-1 (stored in 16 bits), then its text ends where the TxO record says, without the formatting runs after it', async () => {
    const wb = stockWorkbook();
    const xls = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xls' }));
    const input = embedInSheet(xls, 0, noteRecords(1, 1, 1, 'Ann Lee', 'Ann Lee:\nCounted twice → 3'));
    expect((await convertDocument(input, 'xls', std)).markdown).toBe(
      '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n### Comments\n\nComment by Ann Lee on B2: Counted twice → 3\n',
    );
  });

  it('When an xlsx note is by an author whose name has letters past ASCII or an ampersand, then the name reads as typed', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Total'], [7]]);
    ws.A2!.c = [{ a: 'Zoë Müller 陳宗棠 & Co', t: 'Too low?' }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Sum');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Sum\n\n| Total |\n| --- |\n| 7 |\n\n### Comments\n\nComment by Zoë Müller 陳宗棠 & Co on A2: Too low?\n',
    );
  });

  it("When a note's text opens with its author's name and a colon, as Excel types it, then that line is left out and a line naming someone else stays", async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Item', 'Qty'],
      ['Pens', 3],
    ]);
    ws.A2!.c = [{ a: 'Ann Lee', t: 'Ann Lee:\nRecount on Monday' }];
    ws.B2!.c = [{ a: 'Ann Lee', t: 'Bo Park:\nCounted twice' }];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Stock');
    for (const bookType of ['xlsx', 'xls'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(
        '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n### Comments\n\n' +
          'Comment by Ann Lee on A2: Recount on Monday\n\nComment by Ann Lee on B2: Bo Park: Counted twice\n',
      );
    }
  });

  it('When an xlsx has two sheets with number formats, then each is a section with values as shown', async () => {
    const wb = new ExcelJS.Workbook();
    wb.creator = 'Ana';
    wb.title = 'Budget';
    const s1 = wb.addWorksheet('Costs');
    s1.addRow(['Item', 'Price', 'Share', 'Date']);
    s1.addRow(['Café', 1234.5, 0.25, new Date(Date.UTC(2026, 0, 15))]);
    s1.getColumn(2).numFmt = '#,##0.00';
    s1.getColumn(3).numFmt = '0%';
    s1.getColumn(4).numFmt = 'yyyy-mm-dd';
    const s2 = wb.addWorksheet('Empty');
    void s2;
    const input = Buffer.from(await wb.xlsx.writeBuffer());
    const { markdown, metadata } = await convertDocument(input, 'xlsx', std);
    expect(markdown).toBe(
      '## Costs\n\n| Item | Price | Share | Date |\n| --- | --- | --- | --- |\n| Café | 1,234.50 | 25% | 2026-01-15 |\n\n## Empty\n\n*(empty sheet)*\n',
    );
    expect(metadata).toEqual({ title: 'Budget', author: 'Ana', page_count: 2 });
  });

  it('When a whole number of 12 or more digits is in the General format, then all its digits are written, not scientific notation', async () => {
    expect(
      await markdownInEachFormat([
        ['Account', 'Barcode', 'Count'],
        [123456789012, 4006381333931, 42],
      ]),
    ).toEqual(
      inEachFormat(
        '## Data\n\n| Account | Barcode | Count |\n| --- | --- | --- |\n| 123456789012 | 4006381333931 | 42 |\n',
      ),
    );
  });

  it('When cells carry hyperlinks to the web, to mail or into the workbook, then web and mail links are kept in every format', async () => {
    const link = (v: string, Target: string) => ({ t: 's', v, l: { Target } });
    const markdown = await markdownInEachFormat([
      ['Name', 'Link'],
      ['Docs', link('Manual', 'https://example.test/manual')],
      ['Mail', link('Write', 'mailto:team@example.test')],
      ['Inside', link('Totals', '#Data!A1')],
    ]);
    expect(markdown).toEqual(
      inEachFormat(
        '## Data\n\n| Name | Link |\n| --- | --- |\n| Docs | [Manual](https://example.test/manual) |\n| Mail | [Write](mailto:team@example.test) |\n| Inside | Totals |\n',
      ),
    );
  });

  it('When a sheet holds two separate tables, then each becomes its own GFM table and empty edges are trimmed', async () => {
    expect(await markdownInEachFormat([[], ['', 'a', 'b', '', '', 'x'], ['', '1', '2', '', '', '9']])).toEqual(
      inEachFormat('## Data\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| x |\n| --- |\n| 9 |\n'),
    );
  });

  it("When a sheet has an Office 2016 chart (a treemap's chartEx part, with Excel's text box for older versions as fallback), then its kind and data follow the sheet and the fallback's text stays out", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Stores');
    ws.addRow(['Region', 'Store', 'Sales']);
    ws.addRow(['North', 'Leeds', 30]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    );
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">' +
        '<xdr:twoCellAnchor><xdr:from><xdr:col>4</xdr:col><xdr:row>0</xdr:row></xdr:from><mc:AlternateContent><mc:Choice Requires="cx1"><xdr:graphicFrame>' +
        chartExGraphic('rIdC1') +
        "</xdr:graphicFrame></mc:Choice><mc:Fallback><xdr:sp><xdr:txBody><a:p><a:r><a:t>This chart isn't available in your version of Excel.</a:t></a:r></a:p></xdr:txBody></xdr:sp></mc:Fallback></mc:AlternateContent></xdr:twoCellAnchor></xdr:wsDr>",
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdC1" Type="${CHARTEX_REL}" Target="../charts/chartEx1.xml"/></Relationships>`,
    );
    files['xl/charts/chartEx1.xml'] = strToU8(
      chartExPart({
        layout: 'treemap',
        levels: [
          ['Leeds', 'York', 'Bath'],
          ['North', '', 'South'],
        ],
        series: [{ name: 'Sales', values: ['30', '20', '25'] }],
      }),
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Stores\n\n| Region | Store | Sales |\n| --- | --- | --- |\n| North | Leeds | 30 |\n\n*Treemap chart*\n\n|  | Sales |\n| --- | --- |\n| North / Leeds | 30 |\n| North / York | 20 |\n| South / Bath | 25 |\n',
    );
  });

  it('When a sheet has a chart, then its title, kind and cached values follow the sheet table', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sales');
    ws.addRow(['Month', 'Units']);
    ws.addRow(['Jan', 10]);
    ws.addRow(['Feb', 14]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    const pt = (v: string) => `<c:pt idx="0"><c:v>${v}</c:v></c:pt>`;
    files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    );
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><xdr:twoCellAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>',
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdC1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>',
    );
    files['xl/charts/chart1.xml'] = strToU8(
      '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>' +
        '<c:title><c:tx><c:rich><a:p><a:r><a:t>Units by month</a:t></a:r></a:p></c:rich></c:tx></c:title>' +
        '<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache>' +
        pt('Units') +
        '</c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt><c:pt idx="1"><c:v>Feb</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
        '<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>10</c:v></c:pt><c:pt idx="1"><c:v>14</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>',
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Sales\n\n| Month | Units |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n\n**Units by month**\n\n*Bar chart*\n\n|  | Units |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n',
    );
  });

  it('When an xlsx sheet has a text box and a shape with text (a dashboard note), then their paragraphs follow the sheet table', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Budget').addRows([
      ['Item', 'Cost'],
      ['Paper', 12],
    ]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    );
    const shape = (paragraphs: string) =>
      `<xdr:twoCellAnchor><xdr:sp><xdr:nvSpPr><xdr:cNvPr id="2" name="TextBox 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:txBody><a:bodyPr/>${paragraphs}</xdr:txBody></xdr:sp></xdr:twoCellAnchor>`;
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
        shape(
          '<a:p><a:r><a:t>Figures are </a:t></a:r><a:r><a:rPr b="1"/><a:t>estimates</a:t></a:r></a:p><a:p><a:r><a:t>Updated monthly.</a:t></a:r></a:p>',
        ) +
        shape('<a:p><a:r><a:t>Ask finance before ordering.</a:t></a:r></a:p>') +
        shape('<a:p/>') +
        '</xdr:wsDr>',
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Budget\n\n| Item | Cost |\n| --- | --- |\n| Paper | 12 |\n\nFigures are estimates\n\nUpdated monthly.\n\nAsk finance before ordering.\n',
    );
  });

  it('When a Strict xlsx has a chart sheet (SheetJS makes no sheet of it), then the sheet is its chart, not a refusal', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sales').addRows([
      ['Month', 'Units'],
      ['Jan', 10],
    ]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    const rels = (body: string) =>
      strToU8(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`,
      );
    const strict = 'http://purl.oclc.org/ooxml/officeDocument/relationships';
    const workbook = new TextDecoder().decode(files['xl/workbook.xml']);
    files['xl/workbook.xml'] = strToU8(
      workbook.replace('</sheets>', '<sheet name="Units chart" sheetId="9" r:id="rIdCS"/></sheets>'),
    );
    const workbookRels = new TextDecoder().decode(files['xl/_rels/workbook.xml.rels']);
    files['xl/_rels/workbook.xml.rels'] = strToU8(
      workbookRels.replace(
        '</Relationships>',
        `<Relationship Id="rIdCS" Type="${strict}/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>`,
      ),
    );
    files['xl/chartsheets/sheet1.xml'] = strToU8(
      `<chartsheet xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns:r="${strict}"><drawing r:id="rIdD1"/></chartsheet>`,
    );
    files['xl/chartsheets/_rels/sheet1.xml.rels'] = rels(
      `<Relationship Id="rIdD1" Type="${strict}/drawing" Target="../drawings/drawing1.xml"/>`,
    );
    files['xl/drawings/drawing1.xml'] = strToU8(
      `<xdr:wsDr xmlns:xdr="http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing" xmlns:a="http://purl.oclc.org/ooxml/drawingml/main" xmlns:c="http://purl.oclc.org/ooxml/drawingml/chart" xmlns:r="${strict}"><xdr:absoluteAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:absoluteAnchor></xdr:wsDr>`,
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = rels(
      `<Relationship Id="rIdC1" Type="${strict}/chart" Target="../charts/chart1.xml"/>`,
    );
    files['xl/charts/chart1.xml'] = strToU8(
      '<c:chartSpace xmlns:c="http://purl.oclc.org/ooxml/drawingml/chart" xmlns:a="http://purl.oclc.org/ooxml/drawingml/main"><c:chart>' +
        '<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>Units</c:v></c:pt></c:strCache></c:strRef></c:tx>' +
        '<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
        '<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>10</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>',
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Sales\n\n| Month | Units |\n| --- | --- |\n| Jan | 10 |\n\n## Units chart\n\n*Bar chart*\n\n|  | Units |\n| --- | --- |\n| Jan | 10 |\n',
    );
  });

  it('When an xlsx chart has no cached values (openpyxl writes none), then its series and categories are read from the cells they name', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Fruit data');
    ws.addRows([
      ['Month', 'Apples'],
      ['Jan', 10],
      ['Feb', 14],
    ]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    );
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><xdr:twoCellAnchor><xdr:from><xdr:col>4</xdr:col><xdr:row>1</xdr:row></xdr:from><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>',
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdC1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>',
    );
    files['xl/charts/chart1.xml'] = strToU8(
      '<chartSpace xmlns="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><chart>' +
        '<title><tx><rich><a:p><a:r><a:t>Apples sold</a:t></a:r></a:p></rich></tx></title>' +
        "<plotArea><barChart><ser><tx><strRef><f>'Fruit data'!B1</f></strRef></tx>" +
        "<cat><numRef><f>'Fruit data'!$A$2:$A$3</f></numRef></cat><val><numRef><f>'Fruit data'!$B$2:$B$3</f></numRef></val>" +
        '</ser></barChart></plotArea></chart></chartSpace>',
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Fruit data\n\n| Month | Apples |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n\n**Apples sold**\n\n*Bar chart*\n\n|  | Apples |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n',
    );
  });

  it('When a chart is anchored between two tables, then it sits between them in reading order', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sales');
    ws.addRows([['Month', 'Units'], ['Jan', 10], [], [], ['Region', 'Units'], ['North', 4]]);
    const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
    files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdD1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    );
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:row>2</xdr:row></xdr:from><xdr:to><xdr:col>8</xdr:col><xdr:row>3</xdr:row></xdr:to><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rIdC1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>',
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdC1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>',
    );
    files['xl/charts/chart1.xml'] = strToU8(
      '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>' +
        '<c:title><c:tx><c:rich><a:p><a:r><a:t>Units</a:t></a:r></a:p></c:rich></c:tx></c:title>' +
        '<c:plotArea><c:barChart><c:ser><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
        '<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>10</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>',
    );
    const { markdown } = await convertDocument(Buffer.from(zipSync(files)), 'xlsx', std);
    expect(markdown).toBe(
      '## Sales\n\n| Month | Units |\n| --- | --- |\n| Jan | 10 |\n\n**Units**\n\n*Bar chart*\n\n|  | Series 1 |\n| --- | --- |\n| Jan | 10 |\n\n' +
        '| Region | Units |\n| --- | --- |\n| North | 4 |\n',
    );
  });

  it('When a title is typed in the cell above a table, then it is its own one-cell table and the header stays the header', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Ducks per year'], ['Year', 'Ducks'], ['2019', '120'], ['2020', '135']]);
    ws['!merges'] = [XLSX.utils.decode_range('A1:B1')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Birds');
    const input = XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Buffer;
    const { markdown } = await convertDocument(input, 'xls', std);
    expect(markdown).toBe(
      '## Birds\n\n| Ducks per year |\n| --- |\n\n| Year | Ducks |\n| --- | --- |\n| 2019 | 120 |\n| 2020 | 135 |\n',
    );
  });

  it('When a blank row separates two tables, then each is its own table in every format', async () => {
    const cells = [['Item', 'Qty'], ['Pens', 3], [], ['Total', 'Note'], [3, 'ok']];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n| Total | Note |\n| --- | --- |\n| 3 | ok |\n',
      ),
    );
  });

  it('When an index table keeps its columns apart with empty spacer columns, then it is one table without them', async () => {
    const cells = [
      ['No.', '', 'Title', '', 'Page'],
      ['1', '', 'Introduction', '', '3'],
      ['2', '', 'Methods', '', '7'],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| No. | Title | Page |\n| --- | --- | --- |\n| 1 | Introduction | 3 |\n| 2 | Methods | 7 |\n',
      ),
    );
  });

  it('When a total row with an empty middle cell stands an empty row under a full table, then the table keeps every column', async () => {
    const cells = [
      ['Item', 'Quantity', 'Unit price'],
      ['Chair', 2, 249],
      ['Desk', 1, 519],
      [],
      ['Order total', '', 1017],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| Item | Quantity | Unit price |\n| --- | --- | --- |\n| Chair | 2 | 249 |\n| Desk | 1 | 519 |\n| Order total |  | 1017 |\n',
      ),
    );
  });

  it('When an xls formula cell holds empty text as its result (xlwt writes no computed value), then the value is computed; one that cannot be stays empty', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Qty', 'Price', 'Total', 'Lookup'],
      [2, 3, 'x', 'x'],
    ]);
    const xls = Buffer.from(
      XLSX.write({ SheetNames: ['Data'], Sheets: { Data: ws } }, { type: 'buffer', bookType: 'xls' }),
    );
    /** A FORMULA record at row 1 whose cached result is empty text (type 3), as xlwt writes every formula. */
    const formula = (col: number, rgce: Buffer): Buffer => {
      const head = Buffer.alloc(22);
      head.writeUInt16LE(1, 0);
      head.writeUInt16LE(col, 2);
      head.writeUInt16LE(15, 4);
      Buffer.from([3, 0, 0, 0, 0, 0, 0xff, 0xff]).copy(head, 6);
      head.writeUInt16LE(rgce.length, 20);
      return biff(0x0006, Buffer.concat([head, rgce]));
    };
    const ref = (row: number, col: number): Buffer => Buffer.from([0x44, row, 0, col, 0xc0]);
    const product = Buffer.concat([ref(1, 0), ref(1, 1), Buffer.from([0x05])]);
    // NOW() (ptgFuncV 0x41, function 74): nothing to compute it from.
    const now = Buffer.from([0x41, 74, 0]);
    const input = embedInSheet(xls, 0, Buffer.concat([formula(2, product), formula(3, now)]));
    const { markdown } = await convertDocument(input, 'xls', std);
    expect(markdown).toBe('## Data\n\n| Qty | Price | Total | Lookup |\n| --- | --- | --- | --- |\n| 2 | 3 | 6 |  |\n');
  });

  it('When a column of labels stands one empty column left of a block of values, then they stay two tables', async () => {
    const cells = [
      ['Voltage', '', 'kV', '130'],
      ['Frequency', '', 'Hz', '50'],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat('## Data\n\n| Voltage |\n| --- |\n| Frequency |\n\n| kV | 130 |\n| --- | --- |\n| Hz | 50 |\n'),
    );
  });

  it('When two multi-column tables of the same height stand one empty column apart, then they stay two tables', async () => {
    const cells = [
      ['Item', 'Qty', '', 'Region', 'Sales'],
      ['Pens', '3', '', 'North', '5'],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n| Region | Sales |\n| --- | --- |\n| North | 5 |\n',
      ),
    );
  });

  it('When a table has an empty spacer row between its header and its rows, or between groups of rows, then it is one table without it', async () => {
    const cells = [['Item', 'Qty'], [], ['Pens', '3'], ['Ink', '2'], [], ['Paper', '9']];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat('## Data\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n| Ink | 2 |\n| Paper | 9 |\n'),
    );
  });

  it('When the part below an empty row repeats the header or opens with a lone label, then it is a table of its own', async () => {
    const cells = [
      ['Index', 'Value'],
      ['a', 'x'],
      [],
      ['Index', 'Value'],
      ['b', 'y'],
      [],
      ['Totals', ''],
      ['all', 'z'],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| Index | Value |\n| --- | --- |\n| a | x |\n\n| Index | Value |\n| --- | --- |\n| b | y |\n\n' +
          '| Totals |  |\n| --- | --- |\n| all | z |\n',
      ),
    );
  });

  it('When a title merged across the columns stands alone over a blank row, then it is one cell, not repeated per column', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Exports by country, 2005', '', ''],
      [],
      ['Country', 'Tons', 'Value'],
      ['Chile', 62, 9],
    ]);
    ws['!merges'] = [XLSX.utils.decode_range('A1:C1')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Data');
    const expected =
      '## Data\n\n| Exports by country, 2005 |\n| --- |\n\n| Country | Tons | Value |\n| --- | --- | --- |\n| Chile | 62 | 9 |\n';
    for (const bookType of ['xlsx', 'xls', 'ods'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(expected);
    }
  });

  it('When a table opens with a row of one value typed in each cell (not merged), then the row is data, every cell kept', async () => {
    const cells = [
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 3],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat('## Data\n\n| 1 | 1 |\n| --- | --- |\n| 2 | 1 |\n| 3 | 2 |\n| 4 | 3 |\n'),
    );
    expect(
      await markdownInEachFormat([
        ['Yes', 'Yes'],
        ['Tea', 'Coffee'],
        ['Milk', 'Sugar'],
      ]),
    ).toEqual(inEachFormat('## Data\n\n| Yes | Yes |\n| --- | --- |\n| Tea | Coffee |\n| Milk | Sugar |\n'));
  });

  it("When an XLSX's content types name a part the package lacks (its styles), then the sheets are read, not refused", async () => {
    const wb = stockWorkbook();
    const files = unzipSync(Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' })));
    delete files['xl/styles.xml'];
    const input = Buffer.from(zipSync(files));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n',
    );
  });

  it("When an XLS is encrypted with Excel's default password (VelvetSweatshop), then it is read; with another password it is refused as encrypted", async () => {
    const open = rc4EncryptedXls(stockWorkbook(), 'VelvetSweatshop');
    expect((await convertDocument(open, 'xls', std)).markdown).toBe(
      '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n',
    );
    await expect(convertDocument(rc4EncryptedXls(stockWorkbook(), 'secret'), 'xls', std)).rejects.toMatchObject({
      code: 'encrypted_file',
    });
  });

  it('When XLSX parts are written in UTF-16, with or without a BOM, then the sheets are read, not refused', async () => {
    const wb = stockWorkbook();
    const files = unzipSync(Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' })));
    /** The part in UTF-16, its declaration saying so: little-endian with a BOM, or big-endian without one. */
    const wide = (name: string, bom: boolean): Uint8Array => {
      const xml = Buffer.from(files[name]!)
        .toString('utf8')
        .replace(/encoding="UTF-8"/i, 'encoding="UTF-16"');
      const le = Buffer.from(`${bom ? '\ufeff' : ''}${xml}`, 'utf16le');
      return bom ? le : le.swap16();
    };
    for (const bom of [true, false]) {
      const input = Buffer.from(
        zipSync({
          ...files,
          'xl/workbook.xml': wide('xl/workbook.xml', bom),
          'xl/worksheets/sheet1.xml': wide('xl/worksheets/sheet1.xml', bom),
        }),
      );
      expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
        '## Stock\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n',
      );
    }
  });

  it('When a lone row holds the same number in each column, then every cell stays', async () => {
    expect(await markdownInEachFormat([[0, 0, 0]])).toEqual(
      inEachFormat('## Data\n\n| 0 | 0 | 0 |\n| --- | --- | --- |\n'),
    );
  });

  it('When a merged cell spans columns and rows, then its value fills every cell it covers in every format', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Region', 'Sales', ''],
      ['North', 'Q1', 'Q2'],
      ['', 5, 7],
    ]);
    ws['!merges'] = [XLSX.utils.decode_range('B1:C1'), XLSX.utils.decode_range('A2:A3')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Data');
    const expected =
      '## Data\n\n| Region | Sales | Sales |\n| --- | --- | --- |\n| North | Q1 | Q2 |\n| North | 5 | 7 |\n';
    for (const bookType of ['xlsx', 'xls', 'ods'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(expected);
    }
  });

  it('When merged cells bridge a blank column, then the cells on both sides stay one table', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Package no.:', '', 'Rev.'],
      ['1234', '', 'A'],
    ]);
    ws['!merges'] = [XLSX.utils.decode_range('A2:B2')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Data');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Data\n\n| Package no.: |  | Rev. |\n| --- | --- | --- |\n| 1234 | 1234 | A |\n',
    );
  });

  it('When a merged range has no value, then it joins nothing and adds no row', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Item', 'Qty'], ['Pens', 3], [], ['', '', '', 'x']]);
    ws['!merges'] = [XLSX.utils.decode_range('A3:D3')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Data');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Data\n\n| Item | Qty |\n| --- | --- |\n| Pens | 3 |\n\n| x |\n| --- |\n',
    );
  });

  it("When dates carry Excel's built-in locale date and date-time formats, then they are written as ISO dates in xlsx and xls", async () => {
    const ws = XLSX.utils.aoa_to_sheet(
      [
        ['Day', 'At'],
        [new Date(Date.UTC(2026, 0, 15)), new Date(Date.UTC(2026, 0, 15, 13, 45))],
      ],
      { cellDates: true },
    );
    ws.B2!.z = XLSX.SSF.get_table()[22];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Log');
    for (const bookType of ['xlsx', 'xls'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe(
        '## Log\n\n| Day | At |\n| --- | --- |\n| 2026-01-15 | 2026-01-15 13:45 |\n',
      );
    }
  });

  it('When a workbook has a single sheet with a default name, then the sheet still gets its heading in every format', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Item'], ['Pens']]), 'Sheet1');
    for (const bookType of ['xlsx', 'xls', 'ods'] as const) {
      const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType }));
      expect((await convertDocument(input, bookType, std)).markdown).toBe('## Sheet1\n\n| Item |\n| --- |\n| Pens |\n');
    }
  });

  it('When a merged title reaches past the table below it, then it adds no columns and stays the title', async () => {
    const ws = XLSX.utils.aoa_to_sheet([['Ducks per year'], ['Year', 'Ducks'], ['2019', '120']]);
    ws['!merges'] = [XLSX.utils.decode_range('A1:F1')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Birds');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    expect((await convertDocument(input, 'xlsx', std)).markdown).toBe(
      '## Birds\n\n| Ducks per year |\n| --- |\n\n| Year | Ducks |\n| --- | --- |\n| 2019 | 120 |\n',
    );
  });

  it('When a long value is merged over a huge range, then it is repeated only up to the spread budget', async () => {
    const long = 'x'.repeat(1000);
    const ws = XLSX.utils.aoa_to_sheet([[long]]);
    XLSX.utils.sheet_add_aoa(ws, [['end']], { origin: 'Z3000' });
    ws['!merges'] = [XLSX.utils.decode_range('A1:Z3000')];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Big');
    const input = Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }));
    const { markdown } = await convertDocument(input, 'xlsx', std);
    expect(markdown.split(long).length - 1).toBe(MAX_SPREAD_CHARS / long.length);
  });

  it('When cells hold Markdown characters, pipes and edge spaces, then they are escaped and trimmed in every format', async () => {
    const cells = [
      ['Name', 'Note'],
      ['a|b', '*x* and snake_case'],
      [' padded ', '<b>'],
    ];
    expect(await markdownInEachFormat(cells)).toEqual(
      inEachFormat(
        '## Data\n\n| Name | Note |\n| --- | --- |\n| a\\|b | \\*x\\* and snake_case |\n| padded | &lt;b> |\n',
      ),
    );
  });

  it('When a cell sits in the hole of another table, then it joins that table, and tables apart stay apart', () => {
    const gap = (n: number): string[] => Array.from({ length: n }, () => '');
    const rows = [
      ['a', 'b', 'c', ...gap(7), 'x'],
      ['1', ...gap(10)],
      ['2', '', 'm', ...gap(7), 'y'],
      ['3', '4', ...gap(8), 'z'],
    ];
    expect(tableRegions(rows)).toEqual([
      [
        ['a', 'b', 'c'],
        ['1', '', ''],
        ['2', '', 'm'],
        ['3', '4', ''],
      ],
      [['x']],
      [['y'], ['z']],
    ]);
  });

  it('When a sheet is thousands of one-cell islands, then each is its own table in reading order', () => {
    const rows = Array.from({ length: 400 }, (_, r) =>
      Array.from({ length: 50 }, (_, c) => ((r + c) % 2 ? `${r}:${c}` : '')),
    );
    const regions = tableRegions(rows);
    expect(regions).toHaveLength(10_000);
    expect([regions[0], regions[1], regions[25], regions[9_999]]).toEqual([
      [['0:1']],
      [['0:3']],
      [['1:0']],
      [['399:48']],
    ]);
  });

  it('When the spreadsheet is corrupt, then it fails with corrupt_file', async () => {
    await expect(convertDocument(Buffer.from('PK\u0003\u0004garbage'), 'xlsx', std)).rejects.toMatchObject({
      code: 'corrupt_file',
    });
  });

  it('When an xls has charts on its sheets, then each follows its sheet as title, kind and table, cached or read from the cells', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['Month', 'Units'],
        ['Jan', 10],
        ['Feb', 14],
      ]),
      'Data',
    );
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['Notes']]), 'Summary');
    const xls = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const cached = chartSubstream({
      title: 'Share',
      kind: 0x1019,
      categories: ['A', 'B'],
      series: [{ name: 'Part', values: [60, 40] }],
      cache: true,
    });
    const fromCells = chartSubstream({
      title: 'Units by month',
      categories: [],
      categoryCells: [1, 2, 0, 0],
      series: [{ name: '', values: [], cells: { name: [0, 1], values: [1, 2, 1, 1] } }],
    });
    const input = embedInSheet(embedInSheet(xls, 0, cached), 1, fromCells);
    const { markdown } = await convertDocument(input, 'xls', std);
    expect(markdown).toBe(
      '## Data\n\n| Month | Units |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n\n**Share**\n\n*Pie chart*\n\n|  | Part |\n| --- | --- |\n| A | 60 |\n| B | 40 |\n\n' +
        '## Summary\n\n| Notes |\n| --- |\n\n**Units by month**\n\n*Bar chart*\n\n|  | Units |\n| --- | --- |\n| Jan | 10 |\n| Feb | 14 |\n',
    );
  });

  it("When an ODS date is in the locale's default format (LibreOffice's short date), then it is written ISO as XLSX's built-in short date, other date styles as shown", async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
    const styles =
      '<number:date-style style:name="N30" number:automatic-order="true" number:format-source="language"><number:month/><number:text>/</number:text><number:day/><number:text>/</number:text><number:year/></number:date-style>' +
      '<number:date-style style:name="N40"><number:day number:style="long"/><number:text>.</number:text><number:month number:style="long"/><number:text>.</number:text><number:year number:style="long"/></number:date-style>' +
      '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N30"/><style:style style:name="ce2" style:family="table-cell" style:data-style-name="N40"/>';
    const row = (label: string, style: string, shown: string) =>
      `<table:table-row><table:table-cell office:value-type="string"><text:p>${label}</text:p></table:table-cell>` +
      `<table:table-cell table:style-name="${style}" office:value-type="date" office:date-value="2026-03-04"><text:p>${shown}</text:p></table:table-cell></table:table-row>`;
    const ods = odsPackage(
      ns,
      `<table:table table:name="Dates">${row('Due', 'ce1', '3/4/26')}${row('Paid', 'ce2', '04.03.2026')}</table:table>`,
      styles,
    );
    const { markdown } = await convertDocument(ods, 'ods', std);
    expect(markdown).toBe('## Dates\n\n| Due | 2026-03-04 |\n| --- | --- |\n| Paid | 04.03.2026 |\n');
  });
  it('When an ODS number format has conditions SheetJS only approximates, then the cells convert and nothing is printed to the console', async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
    const styles =
      '<number:number-style style:name="N1P0"><number:number number:decimal-places="2" number:min-integer-digits="1"/></number:number-style>' +
      '<number:number-style style:name="N1P1"><number:text>-</number:text><number:number number:decimal-places="2" number:min-integer-digits="1"/></number:number-style>' +
      '<number:number-style style:name="N1"><number:text>zero</number:text>' +
      '<style:map style:condition="value()&gt;0" style:apply-style-name="N1P0"/><style:map style:condition="value()&lt;0" style:apply-style-name="N1P1"/></number:number-style>' +
      '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>';
    const ods = odsPackage(
      ns,
      '<table:table table:name="Sums"><table:table-row><table:table-cell office:value-type="string"><text:p>Net</text:p></table:table-cell>' +
        '<table:table-cell table:style-name="ce1" office:value-type="float" office:value="12.5"><text:p>12.50</text:p></table:table-cell></table:table-row></table:table>',
      styles,
    );
    const printed = jest.spyOn(console, 'error');
    try {
      const { markdown } = await convertDocument(ods, 'ods', std);
      expect(markdown).toContain('| Net | 12.50 |');
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
  it('When an ODS comment is on a blank cell (a LibreOffice note on an empty cell) or is one SheetJS keeps without its text, then it is kept with its cell, in cell order among the others', async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';
    const note = (author: string, text: string) =>
      `<office:annotation><dc:creator>${author}</dc:creator><text:p>${text}</text:p></office:annotation>`;
    const text = (t: string) => `<table:table-cell office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
    const rows =
      `<table:table-row>${text('Item')}${text('Cost')}</table:table-row>` +
      `<table:table-row>${text('Rent')}<table:table-cell office:value-type="float" office:value="900">${note('Ann', 'Due on the 1st')}<text:p>900</text:p></table:table-cell></table:table-row>` +
      '<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="3"/></table:table-row>' +
      `<table:table-row><table:table-cell table:number-columns-spanned="2"/><table:covered-table-cell/><table:table-cell>${note('Bob', 'Ask about &amp; heating')}</table:table-cell></table:table-row>` +
      `<table:table-row><table:table-cell>${note('Cy', 'Empty on purpose')}<text:p/></table:table-cell></table:table-row>`;
    const formula =
      '<table:table-row><table:table-cell table:formula="of:=&quot;Net&quot;" office:value-type="string" office:string-value="Net">' +
      '<office:annotation><dc:creator>Di</dc:creator><text:p>Checked</text:p><text:p/><text:p/></office:annotation><text:p>Net</text:p></table:table-cell></table:table-row>';
    const ods = odsPackage(
      ns,
      `<table:table table:name="Costs">${rows}</table:table><table:table table:name="Totals">${formula}</table:table>`,
    );
    const { markdown } = await convertDocument(ods, 'ods', std);
    expect(markdown).toBe(
      '## Costs\n\n| Item | Cost |\n| --- | --- |\n| Rent | 900 |\n\n### Comments\n\n' +
        'Comment by Ann on B2: Due on the 1st\n\nComment by Bob on C5: Ask about & heating\n\nComment by Cy on A6: Empty on purpose\n\n' +
        '## Totals\n\n| Net |\n| --- |\n\n### Comments\n\nComment by Di on A1: Checked\n',
    );
  });

  it("When an ODS sheet holds a text box in a cell and a shape with text, then their paragraphs follow the sheet's table; a picture adds no text", async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
    const text = (t: string) => `<table:table-cell office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
    const box =
      '<table:table-cell><draw:frame draw:name="Box 1" svg:width="3cm" svg:height="2cm"><draw:text-box>' +
      '<text:p>Figures are <text:span>provisional</text:span>.</text:p><text:p/><text:p>Q4 &amp; Q1 follow.</text:p>' +
      '</draw:text-box></draw:frame></table:table-cell>';
    const picture =
      '<draw:frame draw:name="Logo" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="Pictures/logo.png"><text:p/></draw:image></draw:frame>';
    const ods = odsPackage(
      ns,
      `<table:table table:name="Sales"><table:shapes>${picture}<draw:custom-shape draw:name="Arrow" svg:width="2cm" svg:height="1cm"><text:p>See the total</text:p></draw:custom-shape></table:shapes>` +
        `<table:table-row>${text('Region')}${text('Total')}</table:table-row><table:table-row>${text('North')}${text('120')}${box}</table:table-row></table:table>`,
    );
    const { markdown } = await convertDocument(ods, 'ods', std);
    expect(markdown).toBe(
      '## Sales\n\n| Region | Total |\n| --- | --- |\n| North | 120 |\n\nSee the total\n\nFigures are provisional.\n\nQ4 & Q1 follow.\n',
    );
  });
  it('When an ODS holds the cached values of a DDE link (an unnamed table after the sheets), then the sheets convert and the cache is no sheet', async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ' +
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
    const cell = (t: string) => `<table:table-cell office:value-type="string"><text:p>${t}</text:p></table:table-cell>`;
    const dde =
      '<table:dde-links><table:dde-link><office:dde-source office:dde-application="excel" office:dde-topic="X:\\[Prices.xlsx]Sheet1" office:dde-item="R1C1:R1C2"/>' +
      '<table:table><table:table-column/><table:table-row><table:table-cell office:value-type="float" office:value="1"/></table:table-row></table:table></table:dde-link></table:dde-links>';
    const ods = odsPackage(
      ns,
      `<table:table table:name="Prices"><table:table-row>${cell('Tea')}${cell('Linked')}</table:table-row></table:table>${dde}`,
    );
    const { markdown, metadata } = await convertDocument(ods, 'ods', std);
    expect(markdown).toBe('## Prices\n\n| Tea | Linked |\n| --- | --- |\n');
    expect(metadata.page_count).toBe(1);
  });
});
