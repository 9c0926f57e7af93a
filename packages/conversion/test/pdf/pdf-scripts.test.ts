import { closeConversionWorkers, convertIsolated } from '../../src';
import { parsePdf2Xml } from '../../src/readers/pdf/poppler';
import { readsAsGarbage } from '../../src/readers/pdf/text-quality';
import { joinRunLines, joinWrapped } from '../../src/readers/pdf/styled-runs';
import type { Line, TextItem } from '../../src/readers/pdf/layout';
import { ruledTables } from '../../src/readers/pdf/ruled-tables';
import type { Rule } from '../../src/readers/pdf/rulings';
import { drawRightToLeft, handWrittenPageXml, makePdf as pdf, ruledGrid } from './make-pdf';

afterAll(() => closeConversionWorkers());
const limits = { timeoutMs: 60_000, maxMemoryMb: 512 };
const std = { enhanced: false };
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const CJK_FONT = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf';

const pageXml = (texts: Array<[number, number, number, string]>): string => handWrittenPageXml(texts, 'Noto');
const itemTexts = (xml: string): string[] => parsePdf2Xml(xml)[0]!.items.map((i) => i.text);

/** A body line as the layout builds it, only the fields the text check reads. */
const line = (text: string): Line => ({ text, table: undefined }) as unknown as Line;

describe('PDF text in scripts other than Latin', () => {
  it('When a page is Chinese prose with full-width punctuation and no spaces, then its text layer is not garbage', () => {
    const lines = [
      '二〇二六年度产品质量报告',
      '本报告总结了文档转换服务在过去一年中的质量改进工作。我们对超过一万份真实',
      '文档进行了测试，涵盖合同、发票、学术论文和技术手册等多种类型。测试结果表',
      '明，表格识别的准确率从百分之七十提高到了百分之九十二，标题识别的准确率也',
      '支持全角标点符号，例如“引号”、《书名号》和【方括号】',
    ].map(line);
    expect(readsAsGarbage(lines)).toBe(false);
  });

  it('When a page is Japanese prose with kana, long vowel marks and corner brackets, then its text layer is not garbage', () => {
    const lines = [
      'この規程は、当社における文書の作成、保管および廃棄に関する基本的な事項を定める',
      'ものである。機密文書には「社外秘」の表示を付ける。廃棄の際には、シュレッダー',
      'または専門業者による溶解処理を行い、記録を残すこと。保存期間は原則として五年',
    ].map(line);
    expect(readsAsGarbage(lines)).toBe(false);
  });

  it('When Chinese, Japanese or Thai lines wrap, then they join without a space; Korean and Latin lines keep theirs', () => {
    const runs = (text: string) => [{ text, bold: false, italic: false }];
    expect(joinRunLines([runs('我们对超过一万份真实'), runs('文档进行了测试。')])[0]!.text).toBe(
      '我们对超过一万份真实文档进行了测试。',
    );
    expect(joinWrapped('機密文書には「社外秘」', 'の表示を付ける。')).toBe('機密文書には「社外秘」の表示を付ける。');
    expect(joinWrapped('ภาษาไทยไม่ใช้ช่องว่าง', 'ระหว่างคำ')).toBe('ภาษาไทยไม่ใช้ช่องว่างระหว่างคำ');
    expect(joinWrapped('내년에는 더 많은', '언어를 지원할')).toBe('내년에는 더 많은 언어를 지원할');
    expect(joinWrapped('使用', 'PDF 格式')).toBe('使用 PDF 格式');
  });

  it('When a font maps glyphs to compatibility forms, then the text holds the letters they stand for', () => {
    const texts = itemTexts(
      pageXml([
        [100, 72, 60, '\u2f42\u66f8\ufe11\u3053\u306e'], // Kangxi radical "text" for 文, vertical ideographic comma
        [110, 72, 60, '\u5168\u2ec6\u2ed3'], // radical supplements for 角 and 长 (Noto CJK as Chromium embeds it)
        [120, 72, 60, '\u0e04\u0e4d\u0e32\u0e1e\u0e39\u0e14'], // Thai sara am spelt as nikhahit + sara aa
        [140, 300, 60, '\ufea6\ufe8e\ufeae\ufe97'], // Arabic presentation forms, drawn right to left
        [160, 300, 60, '\ufefb\ufeb3'], // lam-alef ligature in a word drawn right to left
      ]),
    );
    expect(texts).toEqual(['文書、この', '全角长', 'คำพูด', 'تراخ', 'سلا']);
  });

  it('When Devanagari words are drawn with the i vowel sign before its consonant, then each word is in reading order', () => {
    const texts = itemTexts(
      pageXml([
        [100, 72, 40, '\u093f\u0939\u0928\u094d\u0926\u0940'], // िहन्दी drawn as shown
        [100, 120, 40, '\u0915\u094d\u0937\u093f\u0924\u094d\u0930\u092f'], // क्षित्रय: sign after a consonant, before त्र
        [100, 170, 40, '\u091a\u093e\u093f\u0939\u090f'], // चािहए
      ]),
    );
    expect(texts).toEqual(['हिन्दी', 'क्षत्रिय', 'चाहिए']);
  });

  it('When Devanagari text is in reading order already, then its vowel signs stay where they are', () => {
    expect(itemTexts(pageXml([[100, 72, 60, 'कित किताब']]))).toEqual(['कित किताब']);
  });

  it('When a Hebrew line has a Latin word with its full stop drawn on its left, then the stop follows the word', async () => {
    // Drawn as a browser prints "... על מערכת Linux. ההתקנה" right to left: the stop shows left of "Linux".
    const words = ['על', 'מערכת', '.Linux', 'ההתקנה', 'אורכת'];
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(14);
      drawRightToLeft(doc, words, 500, 100);
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe('על מערכת Linux. ההתקנה אורכת\n');
  });

  it('When a ruled table is in Hebrew, then its first column is the rightmost and a cell "4 GB" reads from the right', async () => {
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(11);
      // Columns right to left: component, version, memory; each cell drawn where a right-to-left table puts it.
      ruledGrid(
        doc,
        [100, 220, 340, 460],
        [100, 126, 152, 178],
        [
          ['זיכרון', 'גרסה', 'רכיב'],
          ['', '3.4', 'שרת'],
          ['', '15.2', 'מסד'],
        ],
      );
      // "4 GB" in a right-to-left cell, drawn in reading order as a browser does: the number on the right first,
      // then the unit left of it.
      for (const [n, y] of [
        ['4', 133],
        ['2', 159],
      ] as const) {
        doc.text(n, 104 + doc.widthOfString('GB '), y, { lineBreak: false });
        doc.text('GB', 104, y, { lineBreak: false });
      }
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(
      '| רכיב | גרסה | זיכרון |\n| --- | --- | --- |\n| שרת | 3.4 | 4 GB |\n| מסד | 15.2 | 2 GB |\n',
    );
  });

  it('When a narrow ruled table wraps Japanese cells one character a line, then each cell reads as one word', () => {
    const h = (at: number, from: number, to: number): Rule => ({ horizontal: true, at, from, to });
    const v = (at: number, from: number, to: number): Rule => ({ horizontal: false, at, from, to });
    // Columns at 100/130/160, rows at 700/640/580 (top down): each cell's characters one under the other.
    const rules = [
      ...[700, 640, 580].flatMap((y) => [h(y, 100, 130), h(y, 130, 160)]),
      ...[100, 130, 160].flatMap((x) => [v(x, 640, 700), v(x, 580, 640)]),
    ];
    const stacked = (text: string, x: number, top: number): TextItem[] =>
      [...text].map((c, k) => ({ text: c, x, y: top - 14 - k * 14, width: 11, size: 11, bold: false }));
    const items = [
      ...stacked('契約書', 104, 696),
      ...stacked('十年', 134, 696),
      ...stacked('請求書', 104, 636),
      ...stacked('七年', 134, 636),
    ];
    expect(ruledTables(rules, items).tables.map((t) => t.rows)).toEqual([
      [
        ['契約書', '十年'],
        ['請求書', '七年'],
      ],
    ]);
  });

  it('When a page is set in vertical Japanese columns, then each paragraph reads top-down, columns right to left, as one text', async () => {
    const paragraph = 'この規程は、当社における文書の作成、保管および廃棄に関する基本的な事項を定めるものである。';
    const second = '保存期間を経過した文書は、速やかに廃棄する。';
    const input = await pdf((doc) => {
      doc.font(CJK_FONT).fontSize(14);
      // Columns of 20 characters from the right edge leftwards, each character drawn one size under the one before;
      // a paragraph's first column starts one character down.
      let x = 480;
      for (const text of [paragraph, second]) {
        const chars = [...text];
        let row = 1;
        for (const c of chars) {
          doc.text(c, x, 80 + row * 14, { lineBreak: false });
          row++;
          if (row === 20) {
            row = 0;
            x -= 22;
          }
        }
        x -= 22;
      }
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(`${paragraph}\n\n${second}\n`);
  });

  it('When a PDF spells accented letters as a letter and combining accents, then the items hold them composed', () => {
    expect(itemTexts(pageXml([[100, 72, 200, 'Chu\u0301ng to\u0302i, e\u0301le\u0300ves']]))).toEqual([
      'Chúng tôi, élèves',
    ]);
  });

  it('When right-to-left bullets stand right against their items, then the lines are items of one list', async () => {
    const items = [
      ['מערכת', 'הפעלה', 'חדשה'],
      ['גישת', 'מנהל', 'למכונה'],
      ['חיבור', 'רשת', 'יציב'],
    ];
    const input = await pdf((doc) => {
      doc.font(DEJAVU).fontSize(11);
      items.forEach((words, row) => {
        const y = 100 + row * 16;
        // The bullet ends where the item's first word starts: LibreOffice draws the space after it on the text's left.
        const x = 500 - doc.widthOfString('•');
        doc.text('•', x, y, { lineBreak: false });
        drawRightToLeft(doc, words, x, y);
      });
    });
    const { markdown } = await convertIsolated(input, 'pdf', std, limits);
    expect(markdown).toBe(items.map((words) => `- ${words.join(' ')}\n`).join(''));
  });
});
