import sharp from 'sharp';
import { seeded } from '../seeded-random';

/**
 * A held-out set of scans and photos in other scripts (issue 23): pages drawn with Debian's Noto,
 * Nanum and FreeFont faces (fonts-noto-cjk, fonts-noto-core, fonts-nanum, fonts-freefont-ttf),
 * which the development tests and samples never use, then degraded the way scans and phone photos
 * are: turned a quarter or half turn, skewed, noisy, blurred, lit unevenly, small and JPEG-compressed.
 * The texts and the phrases a faithful reading must contain are written by hand, not taken from any
 * document. Images are generated on demand (deterministic: a seeded noise source), never committed.
 */

export type Degradation = 'clean' | 'rotated90' | 'rotated180' | 'rotated270' | 'skewed' | 'noisy' | 'photo' | 'lowres';

/** One run of text on a page: horizontal lines, or vertical columns read right to left. */
export interface TextRegion {
  lines: string[];
  font: string;
  px: number;
  direction?: 'rtl' | 'vertical';
}

export interface HeldOutCase {
  id: string;
  /** What kind of page it is, for the per-kind table. */
  kind: string;
  regions: TextRegion[];
  degradation: Degradation;
  /** Phrases a faithful reading contains (whitespace ignored when matching). */
  phrases: string[];
  /** The Tesseract languages a reader told the answer would use (for the CLI baseline). */
  languages: string;
}

const SC = 'Noto Sans CJK SC';
const TC = 'Noto Serif CJK TC';
const JP = 'Noto Serif CJK JP';
const JP_SANS = 'Noto Sans CJK JP';
const KR = 'NanumMyeongjo';
const KR_SANS = 'NanumGothic';
const LATIN = 'FreeSerif';
const LATIN_SANS = 'FreeSans';
const CYRILLIC = 'Noto Serif';
const ARABIC = 'Noto Naskh Arabic';
const DEVANAGARI = 'Noto Sans Devanagari';

const ZH_HANS = {
  lines: [
    '图书馆每周六上午九点开门，欢迎市民借阅新书。',
    '今年的春季运动会将在城东体育场举行。',
    '请在下周五之前提交报名表格。',
  ],
  phrases: [
    '图书馆',
    '每周六',
    '上午九点',
    '开门',
    '借阅新书',
    '春季运动会',
    '城东体育场',
    '举行',
    '下周五',
    '报名表格',
  ],
};
const ZH_HANT = {
  lines: [
    '圖書館每週六上午九點開門，歡迎市民借閱新書。',
    '今年的春季運動會將在城東體育場舉行。',
    '請在下週五之前提交報名表格。',
  ],
  phrases: [
    '圖書館',
    '每週六',
    '上午九點',
    '開門',
    '借閱新書',
    '春季運動會',
    '城東體育場',
    '舉行',
    '下週五',
    '報名表格',
  ],
};
const JA = {
  lines: [
    '駅前の喫茶店は毎朝七時に開店します。',
    '週末には近くの公園で花火大会が開かれます。',
    '参加を希望する方は受付で名前を書いてください。',
  ],
  phrases: [
    '駅前',
    '喫茶店',
    '毎朝七時',
    '開店します',
    '週末',
    '公園',
    '花火大会',
    '参加を希望',
    '受付',
    '名前を書いて',
  ],
};
const JA_VERTICAL = {
  lines: [
    '駅前の喫茶店は毎朝七時に',
    '開店します︒週末には近く',
    'の公園で花火大会が開かれ',
    'ます︒参加を希望する方は',
    '受付で名前を書いてくださ',
    'い︒',
  ],
  phrases: ['駅前', '喫茶店', '毎朝七時', '開店', '週末', '公園', '花火大会', '参加を希望', '受付', '名前を書いて'],
};
const KO = {
  lines: [
    '도서관은 매주 토요일 오전 아홉 시에 문을 엽니다.',
    '올해 봄 체육대회는 시청 운동장에서 열립니다.',
    '신청서는 다음 주 금요일까지 제출해 주십시오.',
  ],
  phrases: [
    '도서관은',
    '토요일',
    '오전 아홉 시에',
    '문을 엽니다',
    '체육대회는',
    '운동장에서',
    '열립니다',
    '신청서는',
    '금요일까지',
    '제출해',
  ],
};
const KO_EN = {
  korean: ['주민 여러분께 알려 드립니다.', '다음 주 월요일부터 수영장 공사가 시작됩니다.'],
  english: ['Notice to residents: the swimming pool', 'will be closed for repairs from next Monday.'],
  phrases: [
    '주민',
    '알려 드립니다',
    '월요일부터',
    '수영장',
    '공사가',
    'Notice to residents',
    'swimming pool',
    'closed for repairs',
    'next Monday',
  ],
};
const RU = {
  lines: [
    'Библиотека открывается каждую субботу в девять часов утра.',
    'Весенний праздник пройдёт на городском стадионе.',
    'Заявки принимаются до следующей пятницы.',
  ],
  phrases: [
    'Библиотека',
    'открывается',
    'каждую субботу',
    'девять часов',
    'Весенний праздник',
    'городском стадионе',
    'Заявки принимаются',
    'следующей пятницы',
  ],
};
const AR = {
  lines: [
    'تفتح المكتبة أبوابها كل يوم سبت في الساعة التاسعة صباحا.',
    'سيقام المهرجان الربيعي في الملعب البلدي.',
    'يرجى تقديم الطلبات قبل يوم الجمعة القادم.',
  ],
  phrases: [
    'تفتح المكتبة',
    'أبوابها',
    'يوم سبت',
    'التاسعة',
    'المهرجان الربيعي',
    'الملعب البلدي',
    'تقديم الطلبات',
    'الجمعة القادم',
  ],
};
const HI = {
  lines: [
    'पुस्तकालय हर शनिवार सुबह नौ बजे खुलता है।',
    'वसंत उत्सव शहर के स्टेडियम में आयोजित किया जाएगा।',
    'कृपया अगले शुक्रवार तक आवेदन जमा करें।',
  ],
  phrases: ['पुस्तकालय', 'शनिवार', 'सुबह नौ बजे', 'खुलता है', 'वसंत उत्सव', 'स्टेडियम', 'आयोजित', 'अगले शुक्रवार', 'आवेदन'],
};
const EN = {
  lines: [
    'The harbour ferry leaves every forty minutes from the old pier.',
    'Tickets bought on board cost two pounds more than at the kiosk.',
    'Bicycles travel free outside the morning and evening rush.',
  ],
  phrases: [
    'harbour ferry',
    'every forty minutes',
    'old pier',
    'Tickets bought on board',
    'two pounds more',
    'kiosk',
    'Bicycles travel free',
    'evening rush',
  ],
};
const EN_CAPTION = {
  lines: ['Opening hours and events, spring edition'],
  phrases: ['Opening hours', 'spring edition'],
};

function single(
  id: string,
  kind: string,
  sample: { lines: string[]; phrases: string[] },
  font: string,
  px: number,
  degradation: Degradation,
  languages: string,
  direction?: TextRegion['direction'],
): HeldOutCase {
  return {
    id,
    kind,
    regions: [{ lines: sample.lines, font, px, direction }],
    degradation,
    phrases: sample.phrases,
    languages,
  };
}

/** Every case of the set, in a fixed order. */
export const HELD_OUT_CASES: HeldOutCase[] = [
  single('en-noisy', 'English (control)', EN, LATIN, 28, 'noisy', 'eng'),
  single('en-photo', 'English (control)', EN, LATIN_SANS, 26, 'photo', 'eng'),
  single('en-lowres', 'English (control)', EN, CYRILLIC, 28, 'lowres', 'eng'),
  single('en-rot90', 'English (control)', EN, LATIN, 28, 'rotated90', 'eng'),
  single('zh-hans-clean', 'Chinese (simplified)', ZH_HANS, SC, 36, 'clean', 'chi_sim'),
  single('zh-hans-photo', 'Chinese (simplified)', ZH_HANS, SC, 34, 'photo', 'chi_sim'),
  single('zh-hans-rot90', 'Chinese (simplified)', ZH_HANS, SC, 36, 'rotated90', 'chi_sim'),
  single('zh-hant-clean', 'Chinese (traditional)', ZH_HANT, TC, 38, 'clean', 'chi_tra'),
  single('zh-hant-noisy', 'Chinese (traditional)', ZH_HANT, TC, 38, 'noisy', 'chi_tra'),
  single('ja-clean', 'Japanese (horizontal)', JA, JP, 36, 'clean', 'jpn'),
  single('ja-lowres', 'Japanese (horizontal)', JA, JP_SANS, 36, 'lowres', 'jpn'),
  single('ja-vert-clean', 'Japanese (vertical)', JA_VERTICAL, JP, 36, 'clean', 'jpn_vert', 'vertical'),
  single('ja-vert-skewed', 'Japanese (vertical)', JA_VERTICAL, JP_SANS, 36, 'skewed', 'jpn_vert', 'vertical'),
  single('ko-clean', 'Korean', KO, KR, 34, 'clean', 'kor'),
  single('ko-rot180', 'Korean', KO, KR_SANS, 34, 'rotated180', 'kor'),
  {
    id: 'ko-en-mixed',
    kind: 'Korean mixed with English',
    regions: [
      { lines: KO_EN.korean, font: KR_SANS, px: 36 },
      { lines: KO_EN.english, font: LATIN, px: 34 },
    ],
    degradation: 'clean',
    phrases: KO_EN.phrases,
    languages: 'kor+eng',
  },
  {
    id: 'ko-en-photo',
    kind: 'Korean mixed with English',
    regions: [
      { lines: KO_EN.english, font: LATIN_SANS, px: 32 },
      { lines: KO_EN.korean, font: KR, px: 36 },
    ],
    degradation: 'photo',
    phrases: KO_EN.phrases,
    languages: 'kor+eng',
  },
  single('ru-clean', 'Russian', RU, CYRILLIC, 30, 'clean', 'rus'),
  single('ru-noisy', 'Russian', RU, LATIN, 32, 'noisy', 'rus'),
  single('ru-rot270', 'Russian', RU, CYRILLIC, 30, 'rotated270', 'rus'),
  single('ar-clean', 'Arabic', AR, ARABIC, 36, 'clean', 'ara', 'rtl'),
  single('ar-skewed', 'Arabic', AR, ARABIC, 36, 'skewed', 'ara', 'rtl'),
  single('hi-clean', 'Hindi', HI, DEVANAGARI, 34, 'clean', 'hin'),
  single('hi-lowres', 'Hindi', HI, LATIN, 36, 'lowres', 'hin'),
  {
    id: 'zh-en-mixed',
    kind: 'Chinese mixed with English',
    regions: [
      { lines: EN_CAPTION.lines, font: LATIN_SANS, px: 34 },
      { lines: ZH_HANS.lines, font: SC, px: 36 },
    ],
    degradation: 'clean',
    phrases: [...EN_CAPTION.phrases, ...ZH_HANS.phrases],
    languages: 'chi_sim+eng',
  },
  {
    id: 'ja-vert-en-caption',
    kind: 'Japanese vertical with English',
    regions: [
      { lines: EN_CAPTION.lines, font: LATIN, px: 30 },
      { lines: JA_VERTICAL.lines, font: JP, px: 34, direction: 'vertical' },
    ],
    degradation: 'clean',
    phrases: [...EN_CAPTION.phrases, ...JA_VERTICAL.phrases],
    languages: 'jpn_vert+eng',
  },
];

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A region as SVG at (x, y) and its size. */
function drawRegion(region: TextRegion, x: number, y: number): { svg: string; width: number; height: number } {
  const { px, font } = region;
  const text = (tx: number, ty: number, s: string, rtl = false): string =>
    `<text x="${tx}" y="${ty}" font-family="${font}" font-size="${px}"${rtl ? ' direction="rtl"' : ''}>${escapeXml(s)}</text>`;
  if (region.direction === 'vertical') {
    const pitch = Math.round(px * 1.7);
    const longest = Math.max(...region.lines.map((l) => [...l].length));
    const width = pitch * region.lines.length;
    const height = Math.round(px * 1.05 * longest);
    const svg = region.lines
      .map((line, i) =>
        [...line]
          .map((ch, j) =>
            text(x + width - pitch * (i + 1) + Math.round(px * 0.35), y + Math.round(px * (1.05 * j + 0.9)), ch),
          )
          .join(''),
      )
      .join('');
    return { svg, width, height };
  }
  const width = Math.round(
    px *
      0.62 *
      Math.max(...region.lines.map((l) => l.length)) *
      (/[\u3000-\u9fff\uac00-\ud7af]/.test(region.lines[0]!) ? 1.6 : 1),
  );
  const pitch = Math.round(px * 1.6);
  const rtl = region.direction === 'rtl';
  const svg = region.lines
    .map((line, i) => (rtl ? text(x + width, y + pitch * i + px, line, true) : text(x, y + pitch * i + px, line)))
    .join('');
  return { svg, width, height: pitch * region.lines.length };
}

async function clean(c: HeldOutCase): Promise<{ png: Buffer; width: number; height: number }> {
  const margin = 70;
  let y = margin;
  let width = 0;
  const parts: string[] = [];
  for (const region of c.regions) {
    const drawn = drawRegion(region, margin, y);
    parts.push(drawn.svg);
    y += drawn.height + Math.round(region.px * 1.5);
    width = Math.max(width, drawn.width);
  }
  const w = width + margin * 2;
  const h = y + margin;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`;
  return { png: await sharp(Buffer.from(svg)).png().toBuffer(), width: w, height: h };
}

/** Grey noise of the given spread added to every pixel. */
async function withNoise(png: Buffer, spread: number, seed: number): Promise<Buffer> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const random = seeded(seed);
  for (let i = 0; i < data.length; i++) {
    const n = (random() + random() + random() - 1.5) * spread;
    data[i] = Math.max(0, Math.min(255, data[i]! + n));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

/** Light falling off from one corner, a warm paper tone and low contrast, as a phone photo of a page has. */
async function asPhoto(png: Buffer, width: number, height: number): Promise<Buffer> {
  const shade = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g" cx="0.2" cy="0.15" r="1.1"><stop offset="0" stop-color="#fffaf0"/><stop offset="1" stop-color="#8a8270"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const lit = await sharp(Buffer.from(shade))
    .composite([{ input: await sharp(png).linear(0.75, 50).toBuffer(), blend: 'multiply' }])
    .png()
    .toBuffer();
  const noisy = await withNoise(lit, 30, 7);
  return sharp(noisy).rotate(-2.5, { background: '#7d7666' }).blur(0.8).jpeg({ quality: 70 }).toBuffer();
}

/** One case's image and its file extension. */
export async function renderCase(c: HeldOutCase, index = 0): Promise<{ image: Buffer; ext: 'png' | 'jpg' }> {
  const { png, width, height } = await clean(c);
  switch (c.degradation) {
    case 'clean':
      return { image: png, ext: 'png' };
    case 'rotated90':
      return { image: await sharp(png).rotate(90).png().toBuffer(), ext: 'png' };
    case 'rotated180':
      return { image: await sharp(png).rotate(180).png().toBuffer(), ext: 'png' };
    case 'rotated270':
      return { image: await sharp(png).rotate(270).png().toBuffer(), ext: 'png' };
    case 'skewed':
      return { image: await sharp(png).rotate(3.5, { background: 'white' }).png().toBuffer(), ext: 'png' };
    case 'noisy': {
      const noisy = await withNoise(png, 90, 11 + index);
      return { image: await sharp(noisy).blur(1.0).jpeg({ quality: 55 }).toBuffer(), ext: 'jpg' };
    }
    case 'photo':
      return { image: await asPhoto(png, width, height), ext: 'jpg' };
    case 'lowres':
      // About 150 dpi: text 14–16 px high, then compressed.
      return {
        image: await sharp(png)
          .resize({ width: Math.round(width * 0.42) })
          .jpeg({ quality: 60 })
          .toBuffer(),
        ext: 'jpg',
      };
  }
}

/** Share of the phrases found in the Markdown, ignoring whitespace and Unicode compatibility forms. */
export function heldOutRecall(phrases: string[], markdown: string): number {
  const norm = (s: string): string => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
  const text = norm(markdown);
  return phrases.filter((p) => text.includes(norm(p))).length / phrases.length;
}
