import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import request from 'supertest';
import { convertDocument } from '@markwright/conversion';
import { eventually, scrapeMetrics } from '@markwright/test-support';
import { bearer, startStack, type Stack } from './stack';
import { freePort, ServiceProcess } from '../../../test/faults/infra';

/**
 * Issue 22, point 3: a PDF over SPLIT_PAGES pages is converted in page ranges by any free
 * converter and merged in page order, as one conversion (one charge, one status, one webhook).
 * Here SPLIT_PAGES is 4; the ranges are as many as the converters' slots (one converter at
 * CONVERTER_CONCURRENCY 2: two ranges), never more than ceil(pages / SPLIT_PAGES).
 */
const SPLIT_PAGES = 4;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    converter: false,
    env: { SPLIT_PAGES: String(SPLIT_PAGES), HEALTH_PORT: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
}, 60_000);
afterAll(() => stack?.stop());

/** A PDF of `pages` pages, each with a heading and a paragraph naming its page. */
function longPdf(pages: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    for (let i = 1; i <= pages; i++) {
      doc.addPage();
      doc.fontSize(22).text(`Section ${i}`);
      doc
        .fontSize(11)
        .text(`This is the body text of page ${i}. It carries the marker page${i}marker and a second sentence.`);
    }
    doc.end();
  });
}

const api = () => request(stack.gateway.url);

/** The page markers in the order they appear in the Markdown. */
const markers = (markdown: string): number[] => [...markdown.matchAll(/page(\d+)marker/g)].map((m) => Number(m[1]));
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function partRows(conversionId: string): Promise<number> {
  return stack.gateway.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM conversion_parts WHERE conversion_id = ${conversionId}::uuid`.then((r) => r[0]!.n);
}

async function readRanges(conversionId: string): Promise<number> {
  return stack.gateway.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM conversion_parts WHERE conversion_id = ${conversionId}::uuid AND read IS NOT NULL`.then(
    (r) => r[0]!.n,
  );
}

describe('a long PDF split across converters', () => {
  it('When a PDF has more pages than SPLIT_PAGES, then its ranges are converted as jobs and merged in page order into the one conversion the whole file gives', async () => {
    const converter = await stack.startConverter();
    try {
      const { workspaceId, token } = await stack.workspace('business', 1000);
      const pdf = await longPdf(10);
      const res = await api()
        .post('/convert')
        .set(...bearer(token))
        .field('include_metadata', 'true')
        .attach('file', pdf, 'long.pdf');
      expect(res.status).toBe(200);
      expect(markers(res.body.markdown)).toEqual(upTo(10));
      expect(res.body.metadata.page_count).toBe(10);
      // The same Markdown as the file read whole in one process.
      const whole = await convertDocument(pdf, 'pdf', { enhanced: false });
      expect(res.body.markdown).toBe(whole.markdown);
      // One job from the gateway, then one per range: 1-5, 6-10 (two slots, not ceil(10 / 4) = 3 ranges).
      const scrape = await scrapeMetrics(`http://127.0.0.1:${converter.healthPort}/metrics`);
      expect(scrape.value('markwright_conversion_jobs_total', { queue: 'jobs' })).toBe(3);
      // One charge, no refund; nothing of the ranges stays.
      expect((await stack.ledger(workspaceId)).map((t) => t.type)).toEqual(['grant', 'charge']);
      const rows = await stack.gateway.db.conversion.findMany({ where: { workspaceId }, select: { id: true } });
      expect(rows).toHaveLength(1);
      // Deleted after the announcement, which the request may see first.
      await eventually(async () => ((await partRows(rows[0]!.id)) === 0 ? true : undefined), 30_000, 20);
    } finally {
      await stack.stopConverter();
    }
  }, 120_000);

  it('When a split conversion asks for pages, chunks and the document, then they are those of the whole file', async () => {
    await stack.startConverter();
    try {
      const { token } = await stack.workspace('business', 1000);
      const pdf = await longPdf(10);
      const res = await api()
        .post('/convert')
        .set(...bearer(token))
        .field('include_pages', 'true')
        .field('chunk_max_tokens', '64')
        .field('include_document', 'true')
        .attach('file', pdf, 'long.pdf');
      expect(res.status).toBe(200);
      const whole = await convertDocument(pdf, 'pdf', {
        enhanced: false,
        includePages: true,
        chunkMaxTokens: 64,
        includeDocument: true,
      });
      expect(res.body.pages.map((p: { number: number }) => p.number)).toEqual(upTo(10));
      expect(res.body.markdown).toBe(whole.markdown);
      expect(res.body.pages).toEqual(whole.pages);
      expect(res.body.chunks).toEqual(whole.chunks);
      expect(res.body.document).toEqual(JSON.parse(JSON.stringify(whole.document)));
    } finally {
      await stack.stopConverter();
    }
  }, 120_000);

  it('When a split conversion is cancelled, then every range stops, the refund is made once and nothing of the ranges stays', async () => {
    await stack.startConverter();
    try {
      const { workspaceId, token } = await stack.workspace('business', 1000);
      const pdf = await longPdf(120);
      const accepted = await api()
        .post('/convert')
        .set(...bearer(token))
        .field('webhook_url', 'https://127.0.0.1:9/hook')
        .attach('file', pdf, 'long.pdf');
      expect(accepted.status).toBe(202);
      const id: string = accepted.body.id;
      await eventually(async () => ((await partRows(id)) > 0 ? true : undefined), 30_000);
      const cancelled = await api()
        .post(`/conversions/${id}/cancel`)
        .set(...bearer(token));
      expect(cancelled.status).toBe(200);
      await eventually(async () => ((await partRows(id)) === 0 ? true : undefined), 60_000);
      const detail = await api()
        .get(`/conversions/${id}`)
        .set(...bearer(token));
      expect(detail.body.status).toBe('failed');
      const ledger = (await stack.ledger(workspaceId)).map((t) => t.type);
      expect(ledger.filter((t) => t === 'refund')).toHaveLength(1);
      expect(ledger.filter((t) => t === 'charge')).toHaveLength(1);
    } finally {
      await stack.stopConverter();
    }
  }, 120_000);

  it('When a converter is killed mid-range, then its ranges are redone by another and the merge waits for them: every page once, in order, one charge', async () => {
    const healthPort = await freePort();
    const c = stack.env.config;
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'split-kill-'));
    const doomed = new ServiceProcess(
      'converter',
      {
        DATABASE_URL: c.DATABASE_URL,
        AMQP_URL: c.AMQP_URL,
        QUEUE_PREFIX: c.QUEUE_PREFIX,
        HEALTH_PORT: String(healthPort),
        // Six slots: six ranges of 100 pages, two converting at a time (two worker threads).
        CONVERTER_CONCURRENCY: '6',
        SPLIT_PAGES: '2',
        LOG_LEVEL: 'warn',
      },
      healthPort,
      path.join(logDir, 'converter.log'),
    );
    await doomed.start();
    try {
      const { workspaceId, token } = await stack.workspace('business', 1000);
      // Ranges long enough (100 pages, tens of milliseconds each even on a quiet machine) that the
      // kill lands while most are unread: with 20-page ranges a fast converter had read five of six
      // before the poll saw two.
      const pages = 600;
      const accepted = await api()
        .post('/convert')
        .set(...bearer(token))
        .field('webhook_url', 'https://127.0.0.1:9/hook')
        .attach('file', await longPdf(pages), 'long.pdf');
      expect(accepted.status).toBe(202);
      const id: string = accepted.body.id;
      await eventually(async () => ((await readRanges(id)) >= 1 ? true : undefined), 60_000, 10);
      await doomed.kill9();
      // Killed mid-conversion: ranges were left unread (the last one is never stored, it is merged from memory).
      expect(await readRanges(id)).toBeLessThan(5);
      expect(await partRows(id)).toBe(6);
      await stack.startConverter();
      const detail = await eventually(async () => {
        const res = await api()
          .get(`/conversions/${id}`)
          .set(...bearer(token));
        return res.body.status === 'pending' || res.body.status === 'processing' ? undefined : res;
      }, 120_000);
      expect(detail.body.status).toBe('completed');
      expect(markers(detail.body.markdown)).toEqual(upTo(pages));
      expect((await stack.ledger(workspaceId)).map((t) => t.type)).toEqual(['grant', 'charge']);
      // The ranges' rows go after the announcement (the webhook does not wait for that delete), so
      // a reader that sees "completed" may still find them for a moment: they must go, not be gone.
      await eventually(async () => ((await partRows(id)) === 0 ? true : undefined), 30_000, 20);
    } finally {
      await doomed.stop().catch(() => undefined);
      await stack.stopConverter();
      fs.rmSync(logDir, { recursive: true, force: true });
    }
  }, 240_000);
});
