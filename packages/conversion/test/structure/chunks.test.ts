import { chunkSchema, type Chunk } from '@markwright/contracts/src/structure';
import { convertDocument, countTokens } from '../../src';
import { finishDocument } from '../../src/convert';
import type { Block } from '../../src/document/model';
import { blockAlone, writeBlocks } from '../../src/writers/markdown';
import { groupByPage } from '../../src/writers/pages';
import { writeChunks, writeChunksWithoutControls } from '../../src/writers/chunks';

const md = (text: string) => Buffer.from(text);

async function chunksOf(text: string, max: number, extra: { optimizeTokens?: boolean } = {}) {
  const result = await convertDocument(md(text), 'md', { enhanced: false, chunkMaxTokens: max, ...extra });
  return { markdown: result.markdown, chunks: result.chunks! };
}

/** The chunks joined in order without the header rows repeated at the start of table continuations. */
function joinBack(chunks: Chunk[]): string {
  return chunks
    .map((c) => c.markdown)
    .join('\n\n')
    .replace(/\s+/g, ' ')
    .trim();
}

function withoutRepeatedHeaders(chunks: Chunk[], header: string): Chunk[] {
  return chunks.map((c, i) =>
    i > 0 && c.markdown.startsWith(`${header}\n`) && !chunks[i - 1]!.markdown.endsWith(header)
      ? { ...c, markdown: c.markdown.slice(header.length + 1) }
      : c,
  );
}

const sentence = (i: number) => `Sentence number ${i} tells of the river, the mill and the bridge over the water.`;

function expectCommonRules(chunks: Chunk[], max: number): void {
  chunks.forEach((c, i) => {
    expect(chunkSchema.parse(c)).toEqual(c);
    expect(c.index).toBe(i);
    expect(c.tokens).toBe(countTokens(c.markdown));
    expect(c.tokens).toBeLessThanOrEqual(max);
  });
}

/** E3's packing rule: two neighbours together pass the limit unless the second starts with a heading. */
function expectPacked(chunks: Chunk[], max: number): void {
  for (let i = 1; i < chunks.length; i++) {
    if (/^#{1,6} /.test(chunks[i]!.markdown)) continue;
    expect(countTokens(`${chunks[i - 1]!.markdown}\n\n${chunks[i]!.markdown}`)).toBeGreaterThan(max);
  }
}

describe('token counts', () => {
  it('When text is counted piece by piece with the cache, then the count is exactly the o200k encoding’s length', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Tiktoken } = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const encoder = new Tiktoken(require('js-tiktoken/ranks/o200k_base'));
    const texts = [
      '| item 1 | 3.5 kg | hall 2 |\n| item 2 | 7.0 kg | hall 3 |',
      "héllo wörld  \n\n\t 日本語のテキスト 😀👍🏽 it's DON'T 123456789 ١٢٣ مرحبا",
      `${'x'.repeat(300)} <|endoftext|>   trailing   \n\n\n`,
      Array.from({ length: 200 }, (_, i) => sentence(i)).join(' '),
      '',
    ];
    for (const text of [...texts, ...texts]) expect(countTokens(text)).toBe(encoder.encode(text, [], []).length);
  });
});

describe('E3 chunks', () => {
  it('When a document has sections, then chunks are packed, within the limit, break before headings, carry the enclosing headings and join back', async () => {
    const parts: string[] = ['# Guide'];
    for (let s = 1; s <= 4; s++) {
      parts.push(`## Part ${s}`);
      for (let p = 0; p < 4; p++) parts.push([0, 1, 2].map((k) => sentence(s * 100 + p * 10 + k)).join(' '));
      parts.push(`### Details of part ${s}`, sentence(s * 1000));
    }
    const { markdown, chunks } = await chunksOf(parts.join('\n\n'), 100);
    expectCommonRules(chunks, 100);
    expectPacked(chunks, 100);
    expect(joinBack(chunks)).toBe(markdown.replace(/\s+/g, ' ').trim());
    // Each chunk's headings are the headings enclosing its first line, a heading that opens it not among them.
    let stack: Array<{ level: number; text: string }> = [];
    let next = 0;
    for (const line of markdown.split('\n')) {
      const heading = /^(#{1,6}) (.*)$/.exec(line);
      if (heading) stack = stack.filter((h) => h.level < heading[1]!.length);
      const chunk = chunks[next];
      if (chunk && line !== '' && chunk.markdown.startsWith(line)) {
        expect({ index: next, headings: chunk.headings }).toEqual({ index: next, headings: stack.map((h) => h.text) });
        next++;
      }
      if (heading) stack.push({ level: heading[1]!.length, text: heading[2]! });
    }
    expect(next).toBe(chunks.length);
    expect(chunks.some((c) => c.headings.length === 2 && !c.markdown.startsWith('#'))).toBe(true);
    expect(chunks.filter((c) => c.markdown.startsWith('## Part')).length).toBeGreaterThanOrEqual(3);
    expect(chunks.every((c) => c.pages.length === 1 && c.pages[0] === 1)).toBe(true);
  });

  it('When a table is larger than the limit, then no row is broken and each continuation repeats the header and delimiter rows', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| item ${i} | ${i * 7} kg | stored in hall ${i % 5} |`);
    const header = '| Item | Weight | Place |\n| --- | --- | --- |';
    const { markdown, chunks } = await chunksOf(
      `Inventory list.\n\n${header}\n${rows.join('\n')}\n\nEnd of list.`,
      120,
    );
    expectCommonRules(chunks, 120);
    expect(chunks.length).toBeGreaterThan(3);
    const rowLines = new Set(rows);
    for (const c of chunks) {
      const lines = c.markdown.split('\n').filter((l) => l.startsWith('|'));
      for (const line of lines) {
        if (line.startsWith('| Item') || line.startsWith('| ---')) continue;
        expect(rowLines.has(line)).toBe(true);
      }
      if (lines.length && !c.markdown.startsWith('Inventory')) expect(c.markdown.startsWith(header)).toBe(true);
    }
    expect(joinBack(withoutRepeatedHeaders(chunks, header))).toBe(markdown.replace(/\s+/g, ' ').trim());
  });

  it('When a table fits in a chunk but not in the one being filled, then it moves whole to the next chunk', async () => {
    const table = [
      '| Day | Rain |',
      '| --- | --- |',
      ...Array.from({ length: 8 }, (_, i) => `| day ${i} | ${i} mm |`),
    ].join('\n');
    const { chunks } = await chunksOf(
      `${sentence(1)} ${sentence(2)} ${sentence(3)}\n\n${table}\n\n${sentence(4)}`,
      100,
    );
    expectCommonRules(chunks, 100);
    expect(chunks.filter((c) => c.markdown.includes(table))).toHaveLength(1);
  });

  it('When a list and a code block are larger than the limit, then they break between items and between lines', async () => {
    const items = Array.from({ length: 40 }, (_, i) => `- ${sentence(i)}`).join('\n');
    const code = Array.from({ length: 60 }, (_, i) => `let value${i} = compute(${i}, "alpha beta gamma");`).join('\n');
    const { markdown, chunks } = await chunksOf(`${items}\n\n\`\`\`js\n${code}\n\`\`\``, 90);
    expectCommonRules(chunks, 90);
    const itemLines = new Set(items.split('\n'));
    const codeLines = new Set(code.split('\n'));
    for (const c of chunks) {
      for (const line of c.markdown.split('\n')) {
        if (line.startsWith('- ')) expect(itemLines.has(line)).toBe(true);
        else if (line.startsWith('let ')) expect(codeLines.has(line)).toBe(true);
      }
    }
    expect(joinBack(chunks)).toBe(markdown.replace(/\s+/g, ' ').trim());
  });

  it('When a list is exactly as long as the limit, then it moves whole to the next chunk; one token less, and it breaks between its items', async () => {
    // Items that end in a letter: the line breaks are pieces of their own, so the items' counts and one per line break are the list's.
    const list = Array.from({ length: 12 }, (_, i) => `- item ${i} of the river and the mill`).join('\n');
    const tokens = countTokens(list);
    // The list and the paragraph before it together pass every limit tried.
    for (const max of [tokens, tokens + 1, tokens + 3]) {
      const { chunks } = await chunksOf(`${sentence(99)}\n\n${list}`, max);
      expect(chunks.map((c) => c.markdown)).toEqual([sentence(99), list]);
      expect(chunks[1]!.tokens).toBe(tokens);
    }
    const { chunks } = await chunksOf(`${sentence(99)}\n\n${list}`, tokens - 1);
    expectCommonRules(chunks, tokens - 1);
    expect(chunks[0]!.markdown.startsWith(`${sentence(99)}\n\n- item 0 `)).toBe(true);
    const lines = new Set([sentence(99), '', ...list.split('\n')]);
    for (const c of chunks) for (const line of c.markdown.split('\n')) expect(lines.has(line)).toBe(true);
  });

  it('When no block is found in the document’s Markdown, then tables, lists and code blocks are chunked as when they are', async () => {
    const items = Array.from({ length: 8 }, (_, i) => `- ${sentence(i)}\n  - nested ${i}`).join('\n');
    const rows = Array.from({ length: 12 }, (_, i) => `| row ${i} | ${sentence(i)} |`).join('\n');
    const code = Array.from({ length: 10 }, (_, i) => `let value${i} = compute(${i});`).join('\n');
    const text = `# Lists\n\n${items}\n\n| a | b |\n| --- | --- |\n${rows}\n\n| x | y |\n| --- | --- |\n\n\`\`\`js\n${code}\n\`\`\``;
    const { read, markdown } = await convertDocument(md(text), 'md', { enhanced: false, readOnly: true }).then(
      async (r) => ({ read: r.read!, markdown: (await chunksOf(text, 64)).markdown }),
    );
    const alone = (block: Parameters<typeof blockAlone>[0], written: string) => blockAlone(block, written).trim();
    const groups = () => groupByPage(read.blocks, writeBlocks(read.blocks), read.pages);
    // Limits at which each block fits, the list is exactly as long as the limit or one token longer, and each is cut between its units.
    for (const max of [40, 120, 200, 260, 400, 1000, countTokens(items), countTokens(items) - 1]) {
      const found = writeChunks(groups(), max, alone, markdown);
      // Found nowhere (an empty document): every block and unit is counted on its own.
      const counted = writeChunks(groups(), max, alone, '');
      expect(counted).toEqual(found);
      expectCommonRules(counted, max);
    }
  });

  it('When a chunk holds blocks of several pages, then it names each page once, in ascending order', () => {
    const page = (number: number, texts: string[]) => ({
      number,
      blocks: texts.map((text) => ({ type: 'paragraph' as const, text: [{ type: 'text' as const, text }] })),
      written: texts,
    });
    // Pages as a reader may group them: a later page's blocks before an earlier one's, a page twice.
    const groups = [page(3, ['Third page.']), page(1, ['First page.', 'Also first.']), page(3, ['Third again.'])];
    const document = 'Third page.\n\nFirst page.\n\nAlso first.\n\nThird again.\n';
    const chunks = writeChunks(groups, 512, (_block, written) => written, document);
    expect(chunks.map((c) => c.pages)).toEqual([[1, 3]]);
    // Two blocks a chunk: the first holds page 3 then page 1.
    const small = writeChunks(groups, 8, (_block, written) => written, document);
    expect(small.map((c) => [c.markdown, c.pages])).toEqual([
      ['Third page.\n\nFirst page.', [1, 3]],
      ['Also first.\n\nThird again.', [1, 3]],
    ]);
  });

  it('When one paragraph is larger than the limit, then it breaks between sentences, and a word larger than the limit between characters', async () => {
    const paragraph = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const { markdown, chunks } = await chunksOf(paragraph, 64);
    expectCommonRules(chunks, 64);
    expectPacked(chunks, 64);
    for (const c of chunks) expect(c.markdown).toMatch(/^Sentence number \d+ .*water\.$/);
    expect(joinBack(chunks)).toBe(markdown.replace(/\s+/g, ' ').trim());

    const word = 'x'.repeat(800);
    const long = await chunksOf(`Before. ${word} After.`, 64);
    expectCommonRules(long.chunks, 64);
    expect(
      long.chunks
        .map((c) => c.markdown)
        .join('')
        .replace(/\s+/g, ''),
    ).toBe(`Before.${word}After.`);
  });

  it('When tokens are optimised, then chunks are cut from the optimised Markdown', async () => {
    const table = '| **Name** | **Qty** |\n| --- | --- |\n| apples | 3 |\n| pears | 4 |';
    const { markdown, chunks } = await chunksOf(`# Fruit\n\n${table}`, 64, { optimizeTokens: true });
    expect(markdown).toContain('|Name|Qty|');
    expect(joinBack(chunks)).toBe(markdown.replace(/\s+/g, ' ').trim());
  });
});

describe('E3 chunks of a document with control characters', () => {
  const paragraph = (text: string): Block => ({ type: 'paragraph', text: [{ type: 'text', text }] });
  const cell = (text: string) => [{ type: 'text' as const, text }];
  /** Blocks with control characters (none at a block's edge; one in the heading the chunks name), or the same without them. */
  const blocks = (control: (i: number) => string): Block[] => [
    { type: 'heading', level: 1, text: [{ type: 'text', text: `Hea${control(0)}ding` }] },
    ...Array.from({ length: 12 }, (_, i) => paragraph(`${sentence(i)} Wo${control(i + 1)}rd.`)),
    {
      type: 'table',
      rows: [
        [cell('a'), cell(`b${control(13)}`)],
        [cell('1'), cell('2')],
      ],
    },
  ];
  const metadata = { title: '', author: '', page_count: 0 };
  const CONTROLS = [...'\u0001\u0008\u000b\u000c\u001f\u007f'];

  it('When blocks hold control characters, then the Markdown, pages and chunks are those of the blocks without them', async () => {
    for (const options of [
      { includePages: true, chunkMaxTokens: 64 },
      { chunkMaxTokens: 2048 },
      { includePages: true, chunkMaxTokens: 128, optimizeTokens: true },
    ]) {
      const clean = await finishDocument({ blocks: blocks(() => ''), metadata }, { enhanced: false, ...options });
      const result = await finishDocument(
        { blocks: blocks((i) => CONTROLS[i % CONTROLS.length]!), metadata },
        { enhanced: false, ...options },
      );
      expect({ markdown: result.markdown, pages: result.pages, chunks: result.chunks }).toEqual({
        markdown: clean.markdown,
        pages: clean.pages,
        chunks: clean.chunks,
      });
      expectCommonRules(result.chunks!, options.chunkMaxTokens);
    }
  });

  it('When neither the document nor a block holds a control character, then the chunks are writeChunks’s; else there are none', () => {
    const list = blocks(() => '');
    const written = writeBlocks(list);
    const document = `${written.join('\n\n')}\n`;
    const groups = () => groupByPage(list, written, undefined);
    const alone = (block: Block, text: string) => blockAlone(block, text).trim();
    for (const max of [16, 64, 512]) {
      expect(writeChunksWithoutControls(groups(), max, alone, document)).toEqual(
        writeChunks(groups(), max, alone, document),
      );
      // In the document: its scan sees it.
      expect(writeChunksWithoutControls(groups(), max, alone, document.replace('Word', 'Wo\u0001rd'))).toBeUndefined();
      // In a block found nowhere in the document: its chunk is tested.
      const marked = (block: Block, text: string) =>
        block.type === 'table' ? `${alone(block, text)}\u007f` : alone(block, text);
      expect(writeChunksWithoutControls(groups(), max, marked, document)).toBeUndefined();
    }
  });
});
