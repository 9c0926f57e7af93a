import { zipSync } from 'fflate';
import { sniffContent } from '../src/formats/table';
import { closeConversionWorkers, convertIsolated, convertSmallTextInThread, IN_THREAD_TEXT_MAX_BYTES } from '../src';

// The sniffer as it is, watched: a test below checks that some bytes never reach it in this thread.
jest.mock('../src/formats/table', () => {
  const actual = jest.requireActual<typeof import('../src/formats/table')>('../src/formats/table');
  return { ...actual, sniffContent: jest.fn(actual.sniffContent) };
});

afterAll(() => closeConversionWorkers());

const std = { enhanced: false };
const fill = (unit: string, prefix = '') =>
  prefix + unit.repeat(Math.floor((IN_THREAD_TEXT_MAX_BYTES - prefix.length) / unit.length));

/** Texts at the limit that cost the plain-text path most (measured, docs/performance.md), and ordinary ones. */
const TEXTS: Record<string, Buffer> = {
  plain: Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1024)),
  heading: Buffer.from('# A title ##\n\nbody <b>bold</b> [x](javascript:alert(1))\n'),
  frontMatter: Buffer.from('---\ntitle: "Quoted"\n---\nbody\n'),
  spacedHeading: Buffer.from(`# a${' '.repeat(IN_THREAD_TEXT_MAX_BYTES - 5)}b`),
  images: Buffer.from(fill('![', '# ')),
  brackets: Buffer.from(fill('[', '# ')),
  emphasis: Buffer.from(fill('*a', '# ')),
  latin1: Buffer.alloc(IN_THREAD_TEXT_MAX_BYTES, 0xe9),
  crlf: Buffer.from(fill('a\r\n')),
  empty: Buffer.alloc(0),
  controls: Buffer.from('a\u0001b\u0000c'),
};

describe('small plain text in the calling thread', () => {
  it.each(Object.keys(TEXTS))(
    'When a small .txt (%s) converts in the thread, then the result is the isolated conversion’s',
    async (name) => {
      const input = TEXTS[name]!;
      const here = await convertSmallTextInThread(input, 'txt', std);
      expect(here).toEqual(await convertIsolated(input, 'txt', std));
    },
  );

  it.each([
    ['one byte over the limit', Buffer.alloc(IN_THREAD_TEXT_MAX_BYTES + 1, 'a'), 'txt', std],
    ['a Markdown file', Buffer.from('# a\n'), 'md', std],
    ['a PDF named .txt', Buffer.from('%PDF-1.4\n%%EOF\n'), 'txt', std],
    ['a zip named .txt', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), 'txt', std],
    ['RTF named .txt', Buffer.from('{\\rtf1 hello}'), 'txt', std],
    ['enhanced mode', Buffer.from('a'), 'txt', { enhanced: true }],
    ['optimize_tokens', Buffer.from('a'), 'txt', { enhanced: false, optimizeTokens: true }],
    ['pages', Buffer.from('a'), 'txt', { enhanced: false, includePages: true }],
    ['chunks', Buffer.from('a'), 'txt', { enhanced: false, chunkMaxTokens: 100 }],
    ['the document model', Buffer.from('a'), 'txt', { enhanced: false, includeDocument: true }],
  ] as const)('When it is %s, then it is left to the isolated conversion', async (_name, input, extension, options) => {
    await expect(convertSmallTextInThread(input, extension, options)).resolves.toBeUndefined();
  });

  it('When a compressed zip is named .txt, then it is left to the worker without being opened in this thread', async () => {
    const zip = Buffer.from(zipSync({ 'content.xml': new Uint8Array(1024 * 1024).fill(97) }, { level: 9 }));
    expect(zip.length).toBeLessThanOrEqual(IN_THREAD_TEXT_MAX_BYTES);
    jest.mocked(sniffContent).mockClear();
    await expect(convertSmallTextInThread(zip, 'txt', std)).resolves.toBeUndefined();
    expect(sniffContent).not.toHaveBeenCalled();
  });
});
