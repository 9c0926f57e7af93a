import sharp from 'sharp';

/**
 * Generated media for the OCR tests and the quality bench: text drawn through SVG (DejaVu fonts)
 * and the figures they are scored by.
 */
export const SENTENCE = 'The committee approved the annual budget on Tuesday morning';

/** Text rendered to a PNG through SVG, at a given point size (96 dpi) and angle. */
export async function textImage(lines: string[], pt: number, angle = 0): Promise<Buffer> {
  const px = Math.round((pt * 96) / 72);
  const width = Math.round(px * 0.62 * Math.max(...lines.map((l) => l.length))) + 40;
  const height = Math.round(px * 1.6 * lines.length) + 40;
  const text = lines
    .map(
      (l, i) =>
        `<text x="20" y="${30 + px * (1.4 * i + 1)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${px}">${l}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).rotate(angle, { background: 'white' }).png().toBuffer();
}

/** Share of the expected words (lowercased, punctuation dropped) found in the output. */
export function wordAccuracy(expected: string, actual: string): number {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const got = new Set(norm(actual));
  const want = norm(expected);
  return want.filter((w) => got.has(w)).length / want.length;
}

export const CELLS = [
  ['Region', 'Units', 'Revenue'],
  ['North', '120', '4300'],
  ['South', '95', '3100'],
  ['West', '210', '7800'],
];

/** A 4×3 table of words and numbers drawn on a white page. */
export async function tableImage(): Promise<Buffer> {
  const text = CELLS.flatMap((row, r) =>
    row.map(
      (cell, c) =>
        `<text x="${40 + c * 260}" y="${70 + r * 60}" font-size="32" font-family="DejaVu Sans">${cell}</text>`,
    ),
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="860" height="320"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Cell-set F1 of the first GFM table in the Markdown against CELLS (0 when there is no table). */
export function tableCellF1(markdown: string): number {
  const rows = markdown.split('\n').filter((l) => l.startsWith('|') && !/^\|[\s|-]+\|$/.test(l));
  const got = new Set(
    rows
      .flatMap((r) =>
        r
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim().toLowerCase()),
      )
      .filter(Boolean),
  );
  const want = new Set(CELLS.flat().map((c) => c.toLowerCase()));
  const hit = [...want].filter((c) => got.has(c)).length;
  if (hit === 0) return 0;
  const p = hit / got.size;
  const r = hit / want.size;
  return (2 * p * r) / (p + r);
}

export const LEFT = [
  'The river council met on Monday to discuss the new bridge across the northern bank of the valley.',
  'Members agreed to publish a survey before the spring floods arrive and asked for three designs.',
];
export const RIGHT = [
  'Meanwhile the school orchestra has won the regional prize for a third year in a row.',
  'The prize money will buy a piano for the music room and new stands for the practice hall.',
];

/** Sentences wrapped to a column of about 36 characters, set side by side like a newspaper page. */
export async function twoColumnPage(): Promise<Buffer> {
  const wrap = (sentences: string[]): string[] =>
    sentences.flatMap((s, i) => {
      const lines: string[] = [];
      for (const word of s.split(' ')) {
        const last = lines[lines.length - 1];
        if (last !== undefined && `${last} ${word}`.length <= 36) lines[lines.length - 1] = `${last} ${word}`;
        else lines.push(word);
      }
      return i ? ['', ...lines] : lines;
    });
  const column = (lines: string[], x: number): string =>
    lines
      .map((l, i) => `<text x="${x}" y="${60 + i * 31}" font-family="DejaVu Serif" font-size="22">${l}</text>`)
      .join('');
  const left = wrap(LEFT);
  const right = wrap(RIGHT);
  const height = 100 + Math.max(left.length, right.length) * 31;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1120" height="${height}"><rect width="100%" height="100%" fill="white"/>${column(left, 20)}${column(right, 580)}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Reading-order figure: the share of the page's sentences found whole (every word, in order) in the Markdown. */
export function sentenceRecall(markdown: string): number {
  const norm = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const text = norm(markdown);
  const sentences = [...LEFT, ...RIGHT];
  return sentences.filter((s) => text.includes(norm(s))).length / sentences.length;
}

/** A font with Chinese, Japanese and Korean glyphs (Debian's fonts-wqy-zenhei). */
const CJK_FONT = 'WenQuanYi Zen Hei';

/**
 * Lines of CJK text drawn on a white page: in rows, or (vertical) in columns read top to bottom and
 * right to left, one character under the other, as Japanese and Chinese books set them.
 */
export async function cjkTextImage(lines: string[], px: number, vertical = false): Promise<Buffer> {
  const longest = Math.max(...lines.map((l) => [...l].length));
  const glyph = (x: number, y: number, text: string): string =>
    `<text x="${x}" y="${y}" font-family="${CJK_FONT}" font-size="${px}">${text}</text>`;
  let width: number;
  let height: number;
  let text: string;
  if (vertical) {
    width = Math.round(px * 1.6 * lines.length) + 80;
    height = px * longest + 80;
    text = lines
      .map((line, i) =>
        [...line].map((ch, j) => glyph(width - 60 - Math.round(i * px * 1.6), 40 + px * (j + 1), ch)).join(''),
      )
      .join('');
  } else {
    width = px * longest + 80;
    height = Math.round(px * 1.6 * lines.length) + 60;
    text = lines.map((line, i) => glyph(40, Math.round(40 + px * (1.5 * i + 1)), line)).join('');
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Share of the phrases found in the Markdown, ignoring whitespace (as a must-include check does). */
export function phraseRecall(phrases: string[], markdown: string): number {
  const text = markdown.replace(/\s+/g, '');
  return phrases.filter((p) => text.includes(p.replace(/\s+/g, ''))).length / phrases.length;
}

/** Sentences in Chinese, Japanese and Korean, and the phrases a faithful reading must contain. */
export const CJK_SAMPLES = {
  chinese: {
    lines: ['委员会在星期二上午批准了年度预算', '会议讨论了新的教育政策和交通计划'],
    phrases: ['委员会', '星期二', '上午', '批准', '预算', '会议', '讨论', '教育政策', '交通计划'],
  },
  japanese: {
    lines: ['委員会は火曜日の朝に年間予算を承認しました', '新しい教育方針について話し合いました'],
    phrases: ['委員会', '火曜日', '朝に', '年間予算', '承認しました', '新しい', '教育方針', '話し合いました'],
  },
  korean: {
    lines: ['위원회는 화요일 아침에 연간 예산을 승인했습니다', '새로운 교육 정책에 대해 논의했습니다'],
    phrases: ['위원회는', '화요일', '아침에', '연간 예산을', '승인했습니다', '새로운', '교육 정책에', '논의했습니다'],
  },
  verticalJapanese: {
    lines: [
      '委員会は火曜日の朝に年間',
      '予算を承認しました。新し',
      'い教育方針について話し',
      '合いました。会議は三時',
      '間続きました。',
    ],
    phrases: ['委員会', '火曜日', '朝に', '予算', '承認しました', '教育', 'について', '会議は', '三時'],
  },
};

/** SVG text in DejaVu Sans (bold and colour through `style`), escaped for XML. */
function svgText(x: number, y: number, text: string, px: number, style = ''): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${px}" ${style}>${escaped}</text>`;
}

function page(width: number, height: number, body: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export const REPORT = {
  title: 'NORTHWIND REGIONAL CLINIC',
  heading: 'Overview of the Year',
  body: 'The clinic opened a second wing in March to serve more patients from the northern districts.',
};

/** A report page as letterheads set it: a large bold title in light blue over a heading and body text. */
export function reportPage(): Promise<Buffer> {
  return page(
    1240,
    330,
    svgText(620, 90, REPORT.title, 52, 'text-anchor="middle" fill="#5b9bd5" font-weight="bold"') +
      svgText(60, 200, REPORT.heading, 26, 'fill="#1f4e79" font-weight="bold"') +
      svgText(60, 250, REPORT.body, 20),
  );
}

export const FORM = [
  ['Customer Name:', 'Margaret Ellen Porter', 'Account Number:', 'ACC-5521-0937'],
  ['Date of Birth:', 'June 4, 1969', 'Branch:', 'Harbour Street'],
  ['Customer ID:', 'CUS-2210-7781', 'Advisor:', 'Thomas Reid'],
];

/** A form of labels and values in two pairs of columns (label, value, label, value) under a heading. */
export function formImage(): Promise<Buffer> {
  const xs = [40, 230, 640, 830];
  const rows = FORM.flatMap((row, r) => row.map((cell, c) => svgText(xs[c]!, 120 + r * 44, cell, 18))).join('');
  return page(1240, 120 + FORM.length * 44, svgText(40, 60, 'CUSTOMER DETAILS', 26, 'font-weight="bold"') + rows);
}

export const BANDED = { band: 'PATIENT INFORMATION', body: 'The patient was seen in the outpatient clinic on Friday.' };

/** A heading in white letters on a dark blue band, above a line of dark text. */
export function bandedPage(): Promise<Buffer> {
  return page(
    1240,
    170,
    '<rect x="0" y="20" width="1240" height="60" fill="#1f3a5f"/>' +
      svgText(40, 62, BANDED.band, 28, 'fill="white" font-weight="bold"') +
      svgText(40, 130, BANDED.body, 20),
  );
}
