import { strToU8, zipSync } from 'fflate';
import ExcelJS from 'exceljs';
import { buildDoc } from '../word97';
import { makePdf } from '../pdf/make-pdf';

/**
 * Hostile documents of every format that has links or markup: a link to every spelling of every
 * unsafe scheme, and text that would be markup if passed on. Each document holds one payload, so a
 * finding names its format and payload.
 */

/** Link targets no output may keep live, in the spellings that slip past naive checks. */
export const UNSAFE_TARGETS: Record<string, string> = {
  'javascript:': 'javascript:alert(1)',
  'JaVaScRiPt:': 'JaVaScRiPt:alert(1)',
  'java<TAB>script:': 'java\tscript:alert(1)',
  'java&#x09;script:': 'java&#x09;script:alert(1)',
  '&#106;avascript:': '&#106;avascript:alert(1)',
  '&#x6A (no ;)': '&#x6A&#x61&#x76&#x61script:alert(1)',
  'javascript&colon;': 'javascript&colon;alert(1)',
  '<NUL>javascript:': '\u0000javascript:alert(1)',
  'space+LF javascript:': ' \njavascript:alert(1)',
  'javascript%3A': 'javascript%3Aalert(1)',
  'vbscript:': 'vbscript:msgbox(1)',
  'data:text/html': 'data:text/html,<script>alert(1)</script>',
  'data: base64': 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'file:': 'file:///etc/passwd',
  'breakout: space+\\': 'x onmouseover=alert(1)\\',
  'breakout: LF+tag': 'x\n<img src=x onerror=alert(1)>',
};

/** Text that would run script if it reached the Markdown as markup. */
export const MARKUP_TEXTS: Record<string, string> = {
  '<script>': '<script>alert(1)</script>',
  '<img onerror>': '<img src=x onerror=alert(1)>',
  '<svg onload>': '<svg onload=alert(1)>',
  '</p><iframe>': '</p><iframe src=javascript:alert(1)>',
  '<!-- --><a href>': '<!--x--><a href=javascript:alert(1)>x</a>',
  'autolink <javascript:>': '<javascript:alert(1)>',
  '[x](javascript:)': '[click](javascript:alert(1))',
  '![x](javascript:)': '![x](javascript:alert(1))',
  '[x]: definition': '[x]\n\n[x]: javascript:alert(1)',
  '<meta refresh>': '<meta http-equiv=refresh content="0;url=javascript:alert(1)">',
  '<base href>': '<base href=javascript:alert(1)//>',
  '<form action>': '<form action=javascript:alert(1)><button>x</button></form>',
  '$<img onerror>$': '$<img src=x onerror=alert(1)>$',
};

/** `<` and the tag after it in separate runs: escaping one run at a time misses it. */
export const SPLIT_TAG = ['<', 'img src=x onerror=alert(1)>'] as const;

export interface HostileDocument {
  format: string;
  extension: string;
  payload: string;
  bytes: Buffer;
}

const xml = (s: string): string =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const paragraphs = (s: string): string[] => s.split('\n\n');

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const wRun = (t: string, bold = false): string =>
  `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${xml(t)}</w:t></w:r>`;

function docx(body: string, target?: string): Buffer {
  const rels = target
    ? `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${xml(target)}" TargetMode="External"/></Relationships>`
    : '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>';
  return Buffer.from(
    zipSync({
      'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
      'word/_rels/document.xml.rels': strToU8(rels),
    }),
  );
}

const ODT_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';
function odt(body: string): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.text'),
      'content.xml': strToU8(
        `<office:document-content ${ODT_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      ),
    }),
  );
}

function epub(body: string): Buffer {
  return Buffer.from(
    zipSync({
      mimetype: strToU8('application/epub+zip'),
      'META-INF/container.xml': strToU8(
        '<container><rootfiles><rootfile full-path="OPS/content.opf"/></rootfiles></container>',
      ),
      'OPS/content.opf': strToU8(
        '<package xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Book</dc:title></metadata><manifest><item id="c1" href="c1.xhtml"/></manifest><spine><itemref idref="c1"/></spine></package>',
      ),
      'OPS/c1.xhtml': strToU8(
        `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>C</title></head><body>${body}</body></html>`,
      ),
    }),
  );
}

const rtfText = (s: string): string =>
  s.replace(/[\\{}]/g, '\\$&').replace(/[^\u0020-\u007e]/g, (c) => (c === '\n' ? '\\line ' : `\\u${c.charCodeAt(0)}?`));

async function xlsx(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  fill(book.addWorksheet('S'));
  return Buffer.from(await book.xlsx.writeBuffer());
}

const csvCell = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** A document per format and unsafe link target. */
async function linkDocuments(name: string, url: string): Promise<HostileDocument[]> {
  const docs: Array<[string, string, Buffer | Promise<Buffer>]> = [
    ['txt', 'txt', Buffer.from(`See [click](${url}) here.`)],
    [
      'md link',
      'md',
      Buffer.from(`See [click](<${url.replace(/\n/g, ' ')}>) and ![pic](<${url.replace(/\n/g, ' ')}>) here.`),
    ],
    ['md <a href>', 'md', Buffer.from(`See <a href="${url.replace(/"/g, '&quot;')}">click</a> here.`)],
    ['md definition', 'md', Buffer.from(`See [click][r] here.\n\n[r]: <${url.replace(/\n/g, ' ')}>\n`)],
    ['html', 'html', Buffer.from(`<html><body><p>See <a href="${xml(url)}">click</a> here.</p></body></html>`)],
    [
      'docx hyperlink',
      'docx',
      docx(`<w:p>${wRun('See ')}<w:hyperlink r:id="rId9">${wRun('click')}</w:hyperlink></w:p>`, url),
    ],
    [
      'docx HYPERLINK field',
      'docx',
      docx(
        `<w:p>${wRun('See ')}<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "${xml(url)}" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${wRun('click')}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
      ),
    ],
    ['odt', 'odt', odt(`<text:p>See <text:a xlink:href="${xml(url)}">click</text:a> here.</text:p>`)],
    [
      'rtf',
      'rtf',
      Buffer.from(
        `{\\rtf1\\ansi\\pard See {\\field{\\*\\fldinst HYPERLINK "${rtfText(url)}"}{\\fldrslt click}} here.\\par}`,
      ),
    ],
    [
      'doc',
      'doc',
      buildDoc({ body: [{ runs: [{ text: 'See ' }, { text: 'click', link: url }, { text: ' here.' }] }] }),
    ],
    ['epub', 'epub', epub(`<p>See <a href="${xml(url)}">click</a> here.</p>`)],
    [
      'xml feed',
      'xml',
      Buffer.from(
        `<rss version="2.0"><channel><title>F</title><item><title>click</title><link>${xml(url)}</link></item></channel></rss>`,
      ),
    ],
    ['csv', 'csv', Buffer.from(`a,b\n${csvCell(`[click](${url})`)},2\n`)],
    [
      'xlsx hyperlink',
      'xlsx',
      xlsx((s) => {
        s.getCell('A1').value = { text: 'click', hyperlink: url };
      }),
    ],
    ['pdf link annotation', 'pdf', makePdf((d) => d.text('See click here.', { link: url }))],
  ];
  return Promise.all(
    docs.map(async ([format, extension, bytes]) => ({ format, extension, payload: name, bytes: await bytes })),
  );
}

/** A document per format and markup text. */
async function markupDocuments(name: string, text: string): Promise<HostileDocument[]> {
  const paras = paragraphs(text);
  const docs: Array<[string, string, Buffer | Promise<Buffer>]> = [
    ['txt', 'txt', Buffer.from(`Note: ${text}`)],
    ['md', 'md', Buffer.from(`Note: ${text}`)],
    [
      'md front matter',
      'md',
      Buffer.from(`---\ntitle: ${JSON.stringify(text)}\nnote: ${text.replace(/\n/g, ' ')}\n---\n\nBody.`),
    ],
    [
      'html text',
      'html',
      Buffer.from(`<html><body>${paras.map((p) => `<p>Note: ${xml(p)}</p>`).join('')}</body></html>`),
    ],
    ['docx', 'docx', docx(paras.map((p) => `<w:p>${wRun('Note: ')}${wRun(p)}</w:p>`).join(''))],
    ['odt', 'odt', odt(paras.map((p) => `<text:p>Note: ${xml(p)}</text:p>`).join(''))],
    ['rtf', 'rtf', Buffer.from(`{\\rtf1\\ansi${paras.map((p) => `\\pard Note: ${rtfText(p)}\\par`).join('')}}`)],
    ['doc', 'doc', buildDoc({ body: paras.map((p) => ({ runs: [{ text: `Note: ${p}` }] })) })],
    ['epub', 'epub', epub(paras.map((p) => `<p>Note: ${xml(p)}</p>`).join(''))],
    ['csv', 'csv', Buffer.from(`a,b\n${csvCell(text)},2\n`)],
    ['json', 'json', Buffer.from(JSON.stringify({ title: text, note: text }))],
    [
      'xml feed',
      'xml',
      Buffer.from(
        `<rss version="2.0"><channel><title>${xml(text)}</title><item><title>${xml(text)}</title><description>${xml(text)}</description></item></channel></rss>`,
      ),
    ],
    [
      'xlsx cell',
      'xlsx',
      xlsx((s) => {
        s.getCell('A1').value = 'Note';
        s.getCell('A2').value = text;
      }),
    ],
    ['pdf text', 'pdf', makePdf((d) => paras.forEach((p) => d.text(`Note: ${p}`)))],
  ];
  return Promise.all(
    docs.map(async ([format, extension, bytes]) => ({ format, extension, payload: name, bytes: await bytes })),
  );
}

/** The payload's `<` and the tag after it in separate runs or elements. */
function splitDocuments(): HostileDocument[] {
  const [lt, rest] = SPLIT_TAG;
  const docs: Array<[string, string, Buffer]> = [
    [
      'docx',
      'docx',
      docx(`<w:p>${wRun(`Note: ${lt}`)}${wRun(rest, true)}</w:p><w:p>${wRun(`Note: ${lt}`)}${wRun(rest)}</w:p>`),
    ],
    ['html text', 'html', Buffer.from(`<p>Note: &lt;<b>${xml(rest)}</b></p><p>&lt;<span>${xml(rest)}</span></p>`)],
    ['rtf', 'rtf', Buffer.from(`{\\rtf1\\ansi\\pard Note: ${lt}{\\b ${rtfText(rest)}}\\par}`)],
    ['doc', 'doc', buildDoc({ body: [{ runs: [{ text: `Note: ${lt}` }, { text: rest, bold: true }] }] })],
  ];
  return docs.map(([format, extension, bytes]) => ({ format, extension, payload: '< | tag split', bytes }));
}

/** Metadata carrying markup, where the format has a title or author. */
function metadataDocuments(): HostileDocument[] {
  const m = '<img src=x onerror=alert(1)>';
  const docs: Array<[string, string, Buffer]> = [
    [
      'html',
      'html',
      Buffer.from(
        `<html><head><title>${m}</title><meta name="author" content="${xml(m)}"></head><body>x</body></html>`,
      ),
    ],
    ['md', 'md', Buffer.from(`---\ntitle: "${m}"\n---\n\nx`)],
    ['txt', 'txt', Buffer.from(`# ${m}\n\nx`)],
    ['doc', 'doc', buildDoc({ body: [{ runs: [{ text: 'x' }] }], title: m, author: m })],
  ];
  return docs.map(([format, extension, bytes]) => ({ format, extension, payload: 'metadata', bytes }));
}

/** Every hostile document, by format and payload. */
export async function hostileDocuments(): Promise<HostileDocument[]> {
  const links = await Promise.all(Object.entries(UNSAFE_TARGETS).map(([n, url]) => linkDocuments(n, url)));
  const markup = await Promise.all(Object.entries(MARKUP_TEXTS).map(([n, t]) => markupDocuments(n, t)));
  return [...links.flat(), ...markup.flat(), ...splitDocuments(), ...metadataDocuments()];
}
