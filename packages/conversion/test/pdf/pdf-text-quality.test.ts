import sharp from 'sharp';
import { closeConversionWorkers, convertIsolated } from '../../src';
import { GARBLED_BELOW, pageQuality } from '../../src/readers/pdf/page-quality';
import { readsAsGarbage } from '../../src/readers/pdf/text-quality';
import type { Line } from '../../src/readers/pdf/layout';
import { handWrittenPdf, makePdf as pdf } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 120_000, maxMemoryMb: 512 };

/** Clean pages, written for this test in the languages the common-word list covers and some it does not. */
const CLEAN = [
  'The committee met on Tuesday to review the budget for the coming year. Most of the discussion was about the cost of the new building, which has risen since the plans were approved, and about whether the work should be split into two phases.',
  'Le conseil a examiné les comptes de la société pour l’année écoulée. Les résultats sont meilleurs que prévu, mais la direction reste prudente et ne prévoit pas de hausse des dividendes avant la fin du prochain exercice.',
  'Die Arbeitsgruppe hat sich mit der Frage beschäftigt, wie die neuen Regeln in den einzelnen Abteilungen umgesetzt werden sollen. Dabei wurde auch über die Kosten und den Zeitplan für die Schulungen gesprochen.',
  'El informe describe los cambios en el sistema de transporte de la ciudad durante los últimos diez años. Se han abierto nuevas líneas de autobús y el número de pasajeros ha crecido de forma constante.',
  'Il gruppo di lavoro ha presentato una proposta per ridurre i consumi di energia negli edifici pubblici. La proposta prevede anche un piano di manutenzione per gli impianti di riscaldamento più vecchi.',
  'Styrelsen har beslutat att bolaget ska investera i nya maskiner under hösten. Investeringen finansieras med egna medel och beräknas minska produktionskostnaderna med ungefär tio procent redan nästa år.',
  'Hydraulic pump assembly, rotor housing, bearing cover, shaft seal kit, impeller blade, outlet valve, pressure gauge, mounting bracket, drive coupling, motor terminal box, filter cartridge, drain plug, gasket set, inspection window.',
  'Abbreviations 12, Acoustic models 45, Adaptive filters 78, Bandwidth estimation 102, Beamforming 110, Channel coding 131, Cepstral analysis 140, Decoding algorithms 166, Dynamic range 171, Echo cancellation 190.',
];

/** Caesar shift of Latin letters, as a font whose ToUnicode map is off by a fixed offset reads. */
function shift(text: string, by: number): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + by) % 26) + base);
  });
}

/** UTF-8 bytes read as cp1252 (the usual mojibake). */
function mojibake(text: string): string {
  const cp1252 = new Map([
    [0x80, '€'],
    [0x99, '™'],
    [0x9c, 'œ'],
    [0x93, '“'],
    [0x94, '”'],
    [0xa9, '©'],
  ]);
  return [...Buffer.from(text, 'utf8')].map((b) => cp1252.get(b) ?? String.fromCharCode(b)).join('');
}

const GARBLED = [
  ...Array.from({ length: 25 }, (_, i) => i + 1).flatMap((by) => CLEAN.slice(0, 4).map((t) => shift(t, by))),
  // UTF-8 read as cp1252: accented prose with typographic quotes and dashes.
  ...CLEAN.slice(1, 5).map((t) =>
    mojibake(`${t} « Zitat » — l’été à côté, “déjà” réglé — où ça ? Übermäßig groß, señor.`),
  ),
  // An old OCR layer that read a page of print as consonant clusters, part of which is readable.
  'Tlie rcsults of tbe stndy sliow tliat tlic mcthod worlcs. Ftrnnqkl vvrrmm bcdfg hjkl mnpq rstv wxz qwrt plmk zxcv bnmh ' +
    'jklh grtv ccvb nnmm ttrr wwqq hhjj kkll ppmm ddff ssaa xxzz vvbb nnhh jjkk llpp qqww eerr ttyy uuii',
];

describe('PDF text-layer quality score', () => {
  it('When scored on a labelled set of clean and garbled pages, then precision and recall of "garbled" are at least 0.9', () => {
    const truth = [
      ...CLEAN.map((text) => ({ text, garbled: false })),
      ...GARBLED.map((text) => ({ text, garbled: true })),
    ];
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const page of truth) {
      const flagged = pageQuality(page.text).score < GARBLED_BELOW;
      if (flagged && page.garbled) tp++;
      else if (flagged) fp++;
      else if (page.garbled) fn++;
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    // The labelled set: 8 clean pages, 100 Caesar-shifted (every shift of four languages), 4 mojibake, 1 bad OCR layer.
    expect({ precision: precision >= 0.9, recall: recall >= 0.9 }).toEqual({ precision: true, recall: true });
    // Clean prose in every language here is never flagged: a false positive costs an OCR pass and loses the text layer.
    expect(CLEAN.filter((text) => pageQuality(text).score < GARBLED_BELOW)).toEqual([]);
  });

  it('When one word of a clean page reads as U+FFFD (a font without a Unicode map), then the page is not garbled; when most words do, it is', () => {
    const unmapped = (t: string) => t.replace(/\p{L}+/gu, (w) => '\ufffd'.repeat(w.length));
    // A Word test page: prose, a list, a table, and a line in a Gothic font whose glyphs map to nothing.
    const page = `${CLEAN[0]} Here is a list: Bullet 1 Bullet 2 Bullet 3 And then some Gothic text: ${'\ufffd'.repeat(6)} This is the footer text.`;
    // The whole check, on the page's lines (character classes, then the score).
    const garbage = (text: string) => readsAsGarbage([{ text } as Line]);
    expect(pageQuality(page).score).toBeGreaterThanOrEqual(GARBLED_BELOW);
    expect(garbage(page)).toBe(false);
    expect(garbage(unmapped(CLEAN[0]!))).toBe(true);
    const half = CLEAN[0]!
      .split(' ')
      .map((w, k) => (k % 2 ? unmapped(w) : w))
      .join(' ');
    expect(garbage(half)).toBe(true);
  });

  it('When the running head of a table page is underlined with typed underscores, then its text layer is not taken for garbage', () => {
    // The table's own lines are not judged; what is left is the head, its typed rule, the caption and the page number.
    const page = (rule: string) =>
      readsAsGarbage([
        { text: 'Annual Report on Regional Transport' },
        { text: rule },
        { text: 'Table 4.2: Passengers by line and month' },
        { text: 'Bus 12 | 4,120 | 3,980', table: [['Bus 12', '4,120', '3,980']] },
        { text: 'Source: operator returns, 2024' },
        { text: '17' },
      ] as Line[]);
    expect(page('_'.repeat(60))).toBe(false);
    expect(page('_ '.repeat(40))).toBe(false);
    expect(page('='.repeat(60))).toBe(false);
    // Symbols that are not one repeated character still count.
    expect(page('#%_$^@'.repeat(10))).toBe(true);
  });

  it('When a page is a listing of TeX macros in a typewriter face, then its text layer is not taken for garbage; in a text face it still is', () => {
    const listing = [
      '\\def\\pdflink#1#2{\\hbox{\\pdfannotlink height\\ht\\strutbox depth\\dp\\strutbox',
      '\\else\\ifx[\\nxt \\addF{\\string\\[}\\else\\ifx]\\nxt \\addF{\\string\\]}%',
      '\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi\\fi',
      '\\&{if} ${}(\\\\{buffer}[\\T{0}]\\I\\.{’@’}){}$\\1\\5',
      '${}\\\\{change\\_limit}\\K\\\\{change\\_buffer}-\\\\{buffer}+\\\\{limit};{}$\\6',
    ];
    const page = (font: string) =>
      readsAsGarbage([
        { text: 'APPENDIX B — MACROS FOR FORMATTING 19', font: 'CMR8' },
        ...listing.map((text) => ({ text, font })),
      ] as Line[]);
    expect(page('CMTT8')).toBe(false);
    expect(page('CourierNewPSMT')).toBe(false);
    expect(page('CMR10')).toBe(true);
  });

  it('When a page lists names with numbers and indexes (Col11, IP65, cell[0][2]), then its text layer is not taken for garbage', () => {
    const rows = Array.from({ length: 8 }, (_, r) =>
      Array.from({ length: 5 }, (_, c) => (r % 2 ? `cell[${r}][${c}]` : `Col${r}${c} IP6${c}`)).join(' '),
    );
    expect(readsAsGarbage([{ text: 'Header1 Header2 Header3' }, ...rows.map((text) => ({ text }))] as Line[])).toBe(
      false,
    );
  });

  it('When a page is in another script or says too little, then it is not scored', () => {
    expect(pageQuality('東京都は日本の首都であり、人口は約千四百万人である。'.repeat(5)).scored).toBe(false);
    expect(pageQuality('Москва является столицей России и крупнейшим городом страны.'.repeat(3)).scored).toBe(false);
    expect(pageQuality('Figure 3').scored).toBe(false);
  });

  it("When a page is a character table set in a standard font that is not embedded, then its text layer is kept, not OCR'd", async () => {
    // A font specimen: each row a code and the 16 characters it starts (symbols and Latin-1 letters, few words).
    const rows = [
      '#20 ! " # $ % & \' ( ) * + , - . /',
      '#30 0 1 2 3 4 5 6 7 8 9 : ; < = > ?',
      '#A0 ¡ ¢ £ ¤ ¥ ¦ § ¨ © ª « ¬ ® ¯',
      '#B0 ° ± ² ³ ´ µ ¶ · ¸ ¹ º » ¼ ½ ¾ ¿',
      '#C0 À Á Â Ã Ä Å Æ Ç È É Ê Ë Ì Í Î Ï',
      '#D0 Ð Ñ Ò Ó Ô Õ Ö × Ø Ù Ú Û Ü Ý Þ ß',
      '#F0 ð ñ ò ó ô õ ö ÷ ø ù ú û ü ý þ ÿ',
    ];
    const input = await pdf((doc) => {
      doc.font('Courier').fontSize(16);
      rows.forEach((row, i) => doc.text(row, 72, 100 + i * 30, { lineBreak: false }));
    });
    expect(readsAsGarbage(rows.map((text) => ({ text }) as Line))).toBe(true);
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    // Letters spaced out in a typewriter face are closed up (poppler.ts); the symbols stay apart.
    expect(markdown).toContain('#A0 ¡ ¢ £ ¤ ¥ ¦ § ¨ © ª « ¬ ® ¯');
    expect(markdown.replace(/ /g, '')).toContain('#C0ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏ');
  }, 150_000);

  it("When a page without text draws only stroked lines (a dashed grid and its diagonals), then it is not OCR'd into noise", async () => {
    const lines = [
      [0, 0, 595, 842],
      [595, 0, 0, 842],
      ...[140.3, 280.7, 421, 561.3, 701.7].map((y) => [0, y, 595, y]),
      ...[148.75, 297.5, 446.25].map((x) => [x, 0, x, 842]),
    ];
    const content = `[3] 0 d 0 w ${lines.map(([x0, y0, x1, y1]) => `${x0} ${y0} m ${x1} ${y1} l S`).join(' ')}`;
    const input = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ]);
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    expect(markdown).toBe('');
  }, 150_000);

  it('When a page carries a word-shaped but shifted text layer over a picture of its text, then the page is re-read by OCR', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="200"><rect width="100%" height="100%" fill="white"/><text x="40" y="120" font-size="64" font-family="DejaVu Sans">Payment is due within thirty days</text></svg>`;
    const picture = await sharp(Buffer.from(svg)).png().toBuffer();
    const input = await pdf((doc) => {
      doc.image(picture, 72, 100, { width: 450 });
      // A readable-looking layer: every token is word-shaped, so the character-class check alone passes it.
      doc.fillColor('white').font('Helvetica').fontSize(11).text(shift(CLEAN[0], 3), 72, 110, { width: 450 });
    });
    const { markdown } = await convertIsolated(input, 'pdf', { enhanced: false }, limits);
    // The OCR'd words, not the shifted layer (the engine may misread a short word: "is" as "ts").
    expect(markdown).toMatch(/^Payment \w+ due within thirty days\n$/);
  }, 150_000);
});
