import { convertDocument, closeConversionWorkers } from '@markwright/conversion';
import { createTestEnv, scrapeMetrics, silentLogger, type TestEnv } from '@markwright/test-support';
import { startConverter } from '../src/converter-service';
import { warmUpPdf } from '../src/domain/warm-up';

let env: TestEnv;
beforeAll(async () => (env = await createTestEnv({ HEALTH_PORT: '0' })));
afterAll(async () => {
  await closeConversionWorkers();
  await env?.cleanup();
});

async function readyz(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
}

describe('warming the conversion workers when a converter starts (issue 22)', () => {
  it('When the warm-up PDF is read, then it goes through the PDF reader’s table path (what the first real PDF would load)', async () => {
    const { markdown } = await convertDocument(warmUpPdf(), 'pdf', { enhanced: false });
    expect(markdown).toContain('| Item | Quantity | Price |');
    expect(markdown).toContain('| Apples | 3 | 1.20 |');
  });

  it('When CONVERTER_WARM_UP is on, then the converter is ready only once every slot has converted the warm-up PDF', async () => {
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
