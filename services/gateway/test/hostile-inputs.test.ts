import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import request from 'supertest';
import { strToU8, zipSync } from 'fflate';
import { isTextExtension, SUPPORTED_EXTENSIONS } from '@markwright/conversion';
import { makeSamples, PHRASE } from '../../../packages/conversion/test/samples';
import { bearer, startStack, type Stack } from './stack';

/**
 * Hostile files through the real API and converter (issue 12.3): each answers 200 or a clear 422
 * conversion_failed with the credit refunded, the service stays healthy, and the process's peak
 * RSS is recorded per case (HOSTILE_INPUTS_REPORT=<file> writes the table).
 */
const HEAP_LIMIT_MB = 512;
/** Generous ceiling for the whole test process (jest, gateway, converter and its workers). */
const MAX_PROCESS_RSS_MB = HEAP_LIMIT_MB * 2 + 1536;

let stack: Stack;
let token: string;
let workspaceId: string;
let samples: Record<string, Buffer>;
const report: Array<{ input: string; status: number; seconds: number; peakRssMb: number }> = [];
let peakRssMb = 0;

beforeAll(async () => {
  stack = await startStack({ env: { CONVERSION_MAX_MEMORY_MB: String(HEAP_LIMIT_MB) } });
  ({ token, workspaceId } = await stack.workspace('business', 10_000));
  samples = await makeSamples();
}, 120_000);

afterAll(async () => {
  const file = process.env.HOSTILE_INPUTS_REPORT;
  if (file) {
    const rows = report.map((r) => `| ${r.input} | ${r.status} | ${r.seconds.toFixed(1)} | ${r.peakRssMb} |`);
    fs.writeFileSync(
      file,
      ['| input | answer | seconds | peak RSS MB |', '| --- | --- | --- | --- |', ...rows].join('\n'),
    );
  }
  await stack?.stop();
});

const balance = async () =>
  (await stack.gateway.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).creditBalance;

/** One sync conversion, with the process's peak RSS sampled while it runs. */
async function convert(label: string, bytes: Buffer, filename: string) {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  const started = performance.now();
  try {
    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', bytes, filename);
    const mb = Math.round(peak / (1024 * 1024));
    peakRssMb = Math.max(peakRssMb, mb);
    report.push({ input: label, status: res.status, seconds: (performance.now() - started) / 1000, peakRssMb: mb });
    return res;
  } finally {
    clearInterval(sampler);
  }
}

/** 200 with Markdown, or 422 conversion_failed with a readable message (the credit check is the caller's). */
async function expectCleanAnswerOnly(label: string, bytes: Buffer, filename: string) {
  const res = await convert(label, bytes, filename);
  expect([label, [200, 422].includes(res.status)]).toEqual([label, true]);
  if (res.status === 200) {
    expect(typeof res.body.markdown).toBe('string');
    expect(res.body.markdown).not.toContain('\u0000');
  } else {
    expect([label, res.status, res.body.error]).toEqual([label, 422, 'conversion_failed']);
    expectNoInternals(res.body.message);
  }
  return res;
}

/** A clean answer, and only a completed conversion costs its credit (a failed one is refunded before the 422). */
async function expectCleanAnswer(label: string, bytes: Buffer, filename: string) {
  const before = await balance();
  const res = await expectCleanAnswerOnly(label, bytes, filename);
  expect([label, await balance()]).toEqual([label, res.status === 200 ? before - 1 : before]);
  return res;
}

function expectNoInternals(message: string) {
  expect(typeof message).toBe('string');
  expect(message).not.toMatch(
    /\/tmp\/|\/work\/|node_modules|0x[0-9a-f]{6,}|Maximum call stack|\bat \S+ \(|TypeError|undefined/i,
  );
}

const zeros = (mb: number) => new Uint8Array(mb * 1024 * 1024);

/** A zip whose members inflate far beyond their compressed size (40 MB each: past the size where the ratio is judged). */
function zipBomb(members: Record<string, Uint8Array>): Buffer {
  return Buffer.from(zipSync(members, { level: 9 }));
}

/** The same zip with every member's declared inflated size rewritten to `size` (local and central headers). */
function lyingSizes(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt32LE(size, i + 22);
    else if (sig === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
}

const BOMB_PACKAGES: Record<string, Record<string, Uint8Array>> = {
  docx: { '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': zeros(40) },
  xlsx: { '[Content_Types].xml': strToU8('<Types/>'), 'xl/workbook.xml': zeros(40) },
  pptx: { '[Content_Types].xml': strToU8('<Types/>'), 'ppt/presentation.xml': zeros(40) },
  odt: { mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': zeros(40) },
  epub: { mimetype: strToU8('application/epub+zip'), 'META-INF/container.xml': zeros(40) },
};

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('') +
  ']>';
const EXTERNAL = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

function pdf(pages: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n${pages}\ntrailer <</Root 1 0 R>>\n%%EOF\n`,
  );
}

function sheetClaimingEverything(): Buffer {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      'xl/workbook.xml': strToU8(
        `<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="All" sheetId="1" r:id="r1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
      'xl/worksheets/sheet1.xml': strToU8(
        `<worksheet ${ns}><dimension ref="A1:XFD1048576"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${PHRASE}</t></is></c></row></sheetData></worksheet>`,
      ),
    }),
  );
}

const DEEP = 100_000;

describe('hostile inputs through the API', () => {
  it.each(Object.keys(BOMB_PACKAGES))(
    'When a .%s zip bomb is uploaded, with true or lying size headers, then it is refused cleanly',
    async (ext) => {
      const bomb = zipBomb(BOMB_PACKAGES[ext]!);
      const refused = await expectCleanAnswer(`${ext} zip bomb`, bomb, `bomb.${ext}`);
      expect(refused.status).toBe(422);
      await expectCleanAnswer(`${ext} zip bomb, lying sizes`, lyingSizes(bomb, 1000), `bomb.${ext}`);
    },
    240_000,
  );

  it('When XML declares billion laughs or an external entity, plain or inside office files, then nothing expands or leaks', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['xml billion laughs', Buffer.from(`${LAUGHS}<lolz>&lol9;</lolz>`), 'laughs.xml'],
      ['html billion laughs', Buffer.from(`${LAUGHS}<html><body><p>&lol9;</p></body></html>`), 'laughs.html'],
      ['xml external entity', Buffer.from(`${EXTERNAL}<x>&xxe;</x>`), 'xxe.xml'],
      ['html external entity', Buffer.from(`${EXTERNAL}<html><body>&xxe;</body></html>`), 'xxe.html'],
    ];
    for (const [ext, part] of [
      ['docx', 'word/document.xml'],
      ['xlsx', 'xl/workbook.xml'],
      ['pptx', 'ppt/presentation.xml'],
      ['odt', 'content.xml'],
    ] as const) {
      const base = { ...BOMB_PACKAGES[ext]! };
      cases.push([
        `${ext} billion laughs`,
        zipBomb({ ...base, [part]: strToU8(`${LAUGHS}<x>&lol9;</x>`) }),
        `l.${ext}`,
      ]);
      cases.push([
        `${ext} external entity`,
        zipBomb({ ...base, [part]: strToU8(`${EXTERNAL}<x>&xxe;</x>`) }),
        `e.${ext}`,
      ]);
    }
    for (const [label, bytes, name] of cases) {
      const res = await expectCleanAnswer(label, bytes, name);
      const text = String(res.body.markdown ?? res.body.message);
      expect([label, text.includes('root:'), text.includes('lollollollollollollollollollol')]).toEqual([
        label,
        false,
        false,
      ]);
    }
  }, 240_000);

  it('When images and PDFs claim huge dimensions, page counts or cyclic page trees, then each answers cleanly', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['png 100000x100000 header', pngHeader(100_000, 100_000), 'huge.png'],
      ['jpeg 65000x65000 header', jpegHeader(65_000, 65_000), 'huge.jpg'],
      [
        'pdf claiming 10^9 pages',
        pdf(
          '2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1000000000>> endobj\n3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>> endobj',
        ),
        'pages.pdf',
      ],
      [
        'pdf with a cyclic page tree',
        pdf(
          '2 0 obj <</Type/Pages/Kids[2 0 R 3 0 R]/Count 2>> endobj\n3 0 obj <</Type/Pages/Parent 2 0 R/Kids[2 0 R]/Count 1>> endobj',
        ),
        'cycle.pdf',
      ],
      ['xlsx whose dimension claims the whole sheet', sheetClaimingEverything(), 'everything.xlsx'],
    ];
    for (const [label, bytes, name] of cases) await expectCleanAnswer(label, bytes, name);
    const whole = report.find((r) => r.input.startsWith('xlsx whose dimension'))!;
    expect(whole.status).toBe(200);
  }, 240_000);

  it('When random or truncated bytes are uploaded under each of the 26 extensions, then each answers cleanly', async () => {
    const jobs = SUPPORTED_EXTENSIONS.flatMap((ext) => [
      [`random .${ext}`, randomBytes(32 * 1024), `random.${ext}`] as const,
      // Text cut in half is still text; binary formats cut in half lose their ends and indexes.
      ...(isTextExtension(ext)
        ? []
        : [
            [
              `truncated .${ext}`,
              samples[ext]!.subarray(0, Math.ceil(samples[ext]!.length / 2)),
              `truncated.${ext}`,
            ] as const,
          ]),
    ]);
    const before = await balance();
    let completed = 0;
    // Two at a time, as many as the converter runs at once; credits are checked over the batch.
    for (let i = 0; i < jobs.length; i += 2) {
      const answers = await Promise.all(
        jobs.slice(i, i + 2).map(([label, bytes, name]) => expectCleanAnswerOnly(label, Buffer.from(bytes), name)),
      );
      completed += answers.filter((res) => res.status === 200).length;
    }
    expect(await balance()).toBe(before - completed);
    for (const ext of ['xlsx', 'xls', 'ods']) {
      expect(report.find((r) => r.input === `random .${ext}`)!.status).toBe(422);
    }
  }, 300_000);

  it('When content nests 100,000 deep or runs on one multi-megabyte line, then it answers cleanly', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['json nested 100k', Buffer.from(`${'['.repeat(DEEP)}${']'.repeat(DEEP)}`), 'deep.json'],
      ['html nested 100k', Buffer.from(`${'<div>'.repeat(DEEP)}${PHRASE}${'</div>'.repeat(DEEP)}`), 'deep.html'],
      ['rtf groups nested 100k', Buffer.from(`{\\rtf1 ${'{'.repeat(DEEP)}${PHRASE}${'}'.repeat(DEEP)}}`), 'deep.rtf'],
      ['markdown quotes nested 100k', Buffer.from(`${'>'.repeat(DEEP)} ${PHRASE}\n`), 'deep.md'],
      ['txt one 2 MB line', Buffer.from('word '.repeat(400_000)), 'line.txt'],
      ['csv one 1 MB row', Buffer.from(Array(350_000).fill('ab').join(',')), 'line.csv'],
      ['html one 2 MB paragraph', Buffer.from(`<p>${'word '.repeat(400_000)}</p>`), 'line.html'],
    ];
    for (const [label, bytes, name] of cases) {
      const res = await expectCleanAnswer(label, bytes, name);
      if (label.startsWith('json')) {
        expect(res.body.message).toBe('The JSON file nests deeper than 512 levels, the most we convert.');
      }
      if (label.startsWith('rtf')) {
        expect(res.body.message).toBe('The RTF file nests groups deeper than 512 levels, the most we convert.');
      }
      if (label.startsWith('html nested')) expect(res.body.markdown).toContain(PHRASE);
    }
  }, 300_000);

  it('When filenames look like paths, then the conversion answers by extension as usual', async () => {
    for (const name of ['../../etc/passwd.txt', 'C:\\Windows\\win.ini.txt', '/abs/path/report.md']) {
      const res = await expectCleanAnswer(`filename ${name}`, Buffer.from(`# ${PHRASE}\n`), name);
      expect(res.status).toBe(200);
    }
  }, 120_000);

  it('When the hostile run is over, then a normal conversion succeeds and memory stayed bounded', async () => {
    const res = await convert('docx after the run', samples.docx!, 'after.docx');
    expect(res.status).toBe(200);
    expect(res.body.markdown).toContain(PHRASE);
    expect(peakRssMb).toBeLessThan(MAX_PROCESS_RSS_MB);
  }, 120_000);
});
