import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeConversionWorkers, convertIsolated, pollutedConversionWorkers } from '../../src';
import { countTokens } from '../../src/tokens/count';

const run = promisify(execFile);
const SRC = path.join(__dirname, '..', '..', 'src');

/** The pure-JS port's o200k_base count (the reference the WebAssembly tokenizer replaced). */
function referenceCount(text: string): number {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  reference ??= new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
  /* eslint-enable @typescript-eslint/no-require-imports */
  return reference.encode(text, [], []).length;
}
let reference: import('js-tiktoken/lite').Tiktoken | undefined;

/** OpenAI's tiktoken (WebAssembly) encoding the whole text at once, with its own split pattern. */
function wholeTextCount(text: string): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
  whole ??= get_encoding('o200k_base');
  return whole.encode_ordinary(text).length;
}
let whole: import('tiktoken').Tiktoken | undefined;

const words = ['alpha', 'Beta', 'GAMMA', 'δέλτα', 'ёлка', 'naïve', 'straße', 'x²', 'H₂O', '3.14159', '1,000,000'];
const TEXTS: Array<[string, string]> = [
  ['CJK', '東京都の天気は晴れ、気温は二十五度です。中文文本测试，包括标点符号。한국어 문장도 있습니다.'],
  ['emoji', '👨‍👩‍👧‍👦 family, 👍🏽 thumbs, 🇩🇪 flag, 🎉🎉🎉 party, ❤️ heart, 🧑🏿‍💻'],
  [
    'code',
    'function f(x) {\n\treturn x * 2; // double\n}\n\nconst a = [1, 2, 3].map((n) => n ** 2);\n```ts\nlet s = `${a}`;\n```',
  ],
  [
    'table',
    '| Name | Weight | Hall |\n| --- | ---: | :---: |\n| item 1 | 3.5 kg | hall 2 |\n| item 2 | 7.0 kg |  |\n|  |  |  |',
  ],
  [
    'long words',
    `${'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(12)} ${'x'.repeat(3000)} ${'ab'.repeat(500)}`,
  ],
  ['contractions', "it's DON'T we'RE they've I'M you'll he'D O'Neil's 'quoted'"],
  ['numbers', '12345678901234567890 ١٢٣٤٥ ۱۲۳ 1.2e-10 0x1F 2026-11-26T18:26:11Z'],
  ['RTL and marks', 'مرحبا بالعالم שלום עולם कुछ हिन्दी ÀÉÎõü e\u0301 a\u0308'],
  ['white space', '   \n\n  \t \r\n\r\n\u00a0\u2003 trailing   \n\n\n'],
  ['special token text', '<|endoftext|> and <|fim_prefix|> stay text'],
  ['lone surrogates', 'broken \ud800 pair \udfff end'],
  [
    'markdown',
    '# Title\n\n**bold** *it* ~~s~~ [link](https://example.com/a?b=c&d=e) ![alt](img.png) <sup>2</sup>\n\n- [x] done\n1. one',
  ],
  ['empty', ''],
  // ASCII words (counted from the word table the second time) before each kind of character that may or may not end them.
  [
    'words and what ends them',
    "word word's wordé wordB word1 Word WORD wORD word\u0301 word\u02b0 word. word\nword  word",
  ],
  ['prose', Array.from({ length: 400 }, (_, i) => words[(i * 7) % words.length]).join(' ')],
];

describe('countTokens (o200k_base)', () => {
  it.each(TEXTS)(
    'When the text is %s, then the count equals js-tiktoken’s and tiktoken’s own encoding of the whole text',
    (_, text) => {
      const expected = referenceCount(text);
      // Twice: the second count comes from the cache of pieces.
      expect(countTokens(text)).toBe(expected);
      expect(countTokens(text)).toBe(expected);
      expect(wholeTextCount(text)).toBe(expected);
    },
  );

  it('When random text from many scripts is counted, then every count equals js-tiktoken’s', () => {
    const alphabet = [...'aZ09 .,;:\'"!?-_/\\|*#\n\t東京データéßдαب👍🏽🎉€$%&()[]{}<>'];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 1 + next(200) }, () => alphabet[next(alphabet.length)]).join('');
      expect([text, countTokens(text)]).toEqual([text, referenceCount(text)]);
    }
  });

  it('When a run of one to three ASCII digits is counted, then it is one token, as o200k_base encodes every such string', () => {
    // countTokens counts these pieces as 1 without asking the tokenizer: this is what makes that exact.
    for (let length = 1; length <= 3; length++) {
      for (let n = 0; n < 10 ** length; n++) {
        const digits = String(n).padStart(length, '0');
        expect([digits, wholeTextCount(digits)]).toEqual([digits, 1]);
      }
    }
  });

  it('When digits meet digits of other scripts, letters, spaces or the text’s end, then the count equals js-tiktoken’s', () => {
    const parts = ['1', '12', '123', '1234', '١', '۲۳', '٣', 'a', ' ', '.', '\n', '²', '½', 'é'];
    for (const a of parts) {
      for (const b of parts) {
        for (const c of parts) {
          const text = a + b + c;
          expect([text, countTokens(text)]).toEqual([text, referenceCount(text)]);
        }
      }
    }
  });

  it('When every piece of one or two ASCII characters is counted (twice: then from the table of short pieces), then each count equals js-tiktoken’s', () => {
    for (let a = 0; a < 128; a++) {
      for (let b = -1; b < 128; b++) {
        const text = b < 0 ? String.fromCharCode(a) : String.fromCharCode(a, b);
        const expected = referenceCount(text);
        expect([text, countTokens(text)]).toEqual([text, expected]);
        expect([text, countTokens(text)]).toEqual([text, expected]);
      }
    }
  });

  it('When documents with long pieces are counted and dropped, then the cached pieces do not keep them alive', async () => {
    const script = `
      const { countTokens } = require(${JSON.stringify(path.join(SRC, 'tokens', 'count.ts'))});
      countTokens('The tokenizer and its tables load first.');
      const heap = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed; };
      const before = heap();
      // Five flat 2 MB documents (Buffer.toString), each with a long word and a long punctuation run that get cached.
      for (let n = 0; n < 5; n++) {
        countTokens(Buffer.from('Pneumonoultramicroscopic' + 'abcde'[n] + ' ' + '-'.repeat(20 + n) + ' words'.repeat(350000)).toString());
      }
      process.stdout.write(JSON.stringify(Math.round((heap() - before) / 1e6)));`;
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', script], {
      timeout: 60_000,
    });
    // Kept alive, the five documents would be 10 MB; the cached pieces themselves are a few bytes.
    expect(JSON.parse(stdout)).toBeLessThan(3);
  }, 90_000);

  it('When the tokenizer loads and counts in a fresh process, then the built-ins guard sees no change (it may load inside a guarded task)', async () => {
    const script = `
      const guard = require(${JSON.stringify(path.join(SRC, 'isolation', 'built-ins-guard.ts'))});
      (async () => {
        await guard.settleLazyGlobals();
        const snapshot = guard.snapshotBuiltIns();
        const { countTokens } = require(${JSON.stringify(path.join(SRC, 'tokens', 'count.ts'))});
        const n = countTokens('Loaded during the task: 東京 👍🏽');
        process.stdout.write(JSON.stringify({ n, change: guard.builtInsChange(snapshot) ?? null }));
      })();`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ n: referenceCount('Loaded during the task: 東京 👍🏽'), change: null });
  }, 90_000);

  it('When a guarded conversion worker writes chunks and token counts, then the tokenizer loads there, no worker is taken for polluted, and each chunk’s tokens is its exact count', async () => {
    const lines = ['# Tokens in a worker', ''];
    for (let i = 0; i < 40; i++) lines.push(`Paragraph ${i}: 東京 データ 👍🏽 ${words.join(' ')} it's ${i * 37}.`, '');
    lines.push('| a | b |', '| --- | --- |', ...Array.from({ length: 30 }, (_, i) => `| row ${i} | ${i * 1.5} kg |`));
    const result = await convertIsolated(
      Buffer.from(lines.join('\n')),
      'md',
      { enhanced: false, chunkMaxTokens: 64, optimizeTokens: true },
      { timeoutMs: 60_000, maxMemoryMb: 512 },
    );
    expect(pollutedConversionWorkers()).toBe(0);
    expect(result.chunks!.length).toBeGreaterThan(5);
    for (const chunk of result.chunks!) {
      expect(chunk.tokens).toBe(referenceCount(chunk.markdown));
      expect(chunk.tokens).toBeLessThanOrEqual(64);
    }
    expect(result.tokenOptimization!.optimized_tokens).toBeGreaterThan(0);
  }, 90_000);
});

afterAll(() => closeConversionWorkers());
