import { inflateSync } from 'node:zlib';
import {
  convertDocument,
  closeConversionWorkers,
  countPages,
  DEFAULT_LIMITS,
  workerIdleTimeoutMs,
  workerResourceLimits,
} from '@markwright/conversion';
import { createTestEnv, scrapeMetrics, silentLogger, type TestEnv } from '@markwright/test-support';
import { conversionLimits, startConverter, WORKER_YOUNG_GENERATION_MB } from '../src/converter-service';
import { LONG_WARM_UP_PAGES, WARM_UP_PAGES, warmUpPdf } from '../src/domain/warm-up';

let env: TestEnv;
beforeAll(async () => (env = await createTestEnv({ HEALTH_PORT: '0' })));
afterAll(async () => {
  await closeConversionWorkers();
  await env?.cleanup();
});

/** The pages' content streams of a PDF whose streams are all Flate-compressed page contents (the warm-up PDF). */
function contentStreams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/g)].map((m) =>
    inflateSync(pdf.subarray(m.index! + m[0].length, m.index! + m[0].length + Number(m[1]))).toString('latin1'),
  );
}

async function readyz(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
}

describe('warming the conversion workers when a converter starts (issue 22)', () => {
  it('When the warm-up PDF is read, then every page goes through the PDF reader’s heading, paragraph and table paths (what real PDFs run)', async () => {
    const { markdown } = await convertDocument(warmUpPdf(3), 'pdf', { enhanced: false });
    // No line repeats from page to page, so none is dropped as a running header.
    expect(markdown.match(/^# .+$/gm)).toEqual([
      '# Warm-up',
      '# Section 2: library and orchard',
      '# Section 3: harbour and quarterly',
    ]);
    expect(markdown.match(/^\| Item \| Quantity \| Price \| Note \|$/gm)).toHaveLength(3);
    expect(markdown).toContain('| orchard | 2.10 | 3.10 | station |');
    // Three paragraphs of four sentences on every page, their wrapped lines joined.
    const paragraphs = markdown.split('\n\n').filter((b) => !/^[#|]/.test(b));
    expect(paragraphs).toHaveLength(9);
    for (const paragraph of paragraphs) expect(paragraph.match(/[A-Z][a-z ]+\./g)).toHaveLength(4);
  });

  it('When the warm-up PDF is long, then every page keeps its heading (no line repeats as a running header)', async () => {
    const { markdown } = await convertDocument(warmUpPdf(WARM_UP_PAGES), 'pdf', { enhanced: false });
    expect(markdown.match(/^# Section \d+: \w+ and \w+$/gm)).toHaveLength(WARM_UP_PAGES - 1);
  });

  it('When the long warm-up PDF is read as a split range reads it, then every page of the range gives its heading and its table', async () => {
    const { written } = await convertDocument(warmUpPdf(LONG_WARM_UP_PAGES), 'pdf', {
      enhanced: false,
      writeBlocksOnly: true,
      pageRange: [[2, LONG_WARM_UP_PAGES - 1]],
    });
    const texts = written?.texts ?? [];
    expect(texts[0]).toBe('# Section 2: library and orchard');
    expect(texts.filter((text) => text.startsWith('# Section '))).toHaveLength(LONG_WARM_UP_PAGES - 2);
    expect(texts.filter((text) => text.startsWith('| Item | Quantity | Price | Note |'))).toHaveLength(
      LONG_WARM_UP_PAGES - 2,
    );
  });

  it('When the warm-up PDF’s pages are drawn, then some place everything at whole points and others at fractions (the reader is compiled for both)', () => {
    const pages = contentStreams(warmUpPdf(2));
    expect(pages).toHaveLength(2);
    const positions = pages.map((page) => [...page.matchAll(/ (\S+) (\S+) Tm /g)].map((m) => Number(m[1])));
    expect(positions[0]!.every((x) => !Number.isInteger(x))).toBe(true);
    expect(positions[1]!.every((x) => Number.isInteger(x))).toBe(true);
    expect(pages[0]).toMatch(/^\d+\.\d+ [\d.]+ \d+\.\d+ 17\.64 re S$/m);
    expect(pages[1]).toMatch(/^\d+ [\d.]+ \d+ 18 re S$/m);
    expect(pages[1]).not.toMatch(/^\d+\.\d+ [\d.]+ \d+(\.\d+)? [\d.]+ re S$/m);
  });

  it('When the warm-up PDF’s pages are counted, then the split decision’s count answers for all of them', async () => {
    expect(await countPages(warmUpPdf(WARM_UP_PAGES), 'pdf')).toBe(WARM_UP_PAGES);
  });

  it('When CONVERTER_WARM_UP is on, then the converter is ready only once every slot has converted the warm-up PDF WARM_UP_PASSES times and read the long one as a range LONG_WARM_UP_PASSES times', async () => {
    const converter = await startConverter(
      { ...env.config, CONVERTER_WARM_UP: true, CONVERTER_CONCURRENCY: 2 },
      silentLogger,
    );
    try {
      // Loading the reader in fresh workers takes seconds: the converter has only just started.
      expect(await readyz(converter.healthPort!)).toBe(503);
      await converter.warmedUp;
      expect(await readyz(converter.healthPort!)).toBe(200);
      const scrape = await scrapeMetrics(`http://127.0.0.1:${converter.healthPort}/metrics`);
      expect(scrape.value('markwright_converter_warmed_workers')).toBe(2);
    } finally {
      await converter.stop();
    }
  }, 120_000);

  it('When a converter’s worker threads sit idle, then they stay (warm), while a CLI run’s exit after the usual idle time', () => {
    expect(workerIdleTimeoutMs(conversionLimits(env.config))).toBe(Infinity);
    expect(workerIdleTimeoutMs({ timeoutMs: 1000, maxMemoryMb: 512 })).toBe(5 * 60_000);
  });

  it('When a converter’s worker threads are made, then their young generation is WORKER_YOUNG_GENERATION_MB (a long range’s lines stay young), while a CLI run’s workers keep the library’s default', () => {
    expect(workerResourceLimits(conversionLimits(env.config))).toEqual({
      maxOldGenerationSizeMb: env.config.CONVERSION_MAX_MEMORY_MB,
      maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
    });
    expect(workerResourceLimits(DEFAULT_LIMITS)).toEqual({
      maxOldGenerationSizeMb: 1536,
      maxYoungGenerationSizeMb: 64,
    });
  });

  it('When CONVERTER_WARM_UP is off, then nothing is converted and the converter is ready at once', async () => {
    const converter = await startConverter({ ...env.config, CONVERTER_WARM_UP: false }, silentLogger);
    try {
      expect(await readyz(converter.healthPort!)).toBe(200);
      const scrape = await scrapeMetrics(`http://127.0.0.1:${converter.healthPort}/metrics`);
      expect(scrape.value('markwright_converter_warmed_workers')).toBe(0);
    } finally {
      await converter.stop();
    }
  }, 60_000);
});
