import fs from 'node:fs';
import path from 'node:path';
import { parser as promql } from '@prometheus-io/lezer-promql';
import request from 'supertest';
import { eventually, scrapeMetrics, silentLogger } from '@markwright/test-support';
import { startDispatcher, type DispatcherService } from '../../dispatcher/src/dispatcher-service';
import { makeCertificate, startReceiver } from '../../dispatcher/test/receiver';
import { bearer, startStack, type Stack } from './stack';

const cert = makeCertificate();
let stack: Stack;
let dispatcher: DispatcherService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let token: string;

const gatewayMetrics = () => scrapeMetrics(`http://127.0.0.1:${stack.gateway.port}/metrics`);
const converterMetrics = () => scrapeMetrics(`http://127.0.0.1:${stack.converter!.healthPort}/metrics`);
const dispatcherMetrics = () => scrapeMetrics(`http://127.0.0.1:${dispatcher.healthPort}/metrics`);

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  stack = await startStack({
    converter: false,
    env: { HEALTH_PORT: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '1000,1500' },
  });
  dispatcher = await startDispatcher(stack.env.config, silentLogger);
  receiver = await startReceiver(cert);
  ({ token } = await stack.workspace('business', 1000));
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await stack?.stop();
  cert.cleanup();
});

const convertAsync = async (name: string, content: string, hook: string) => {
  const res = await request(stack.gateway.url)
    .post('/convert')
    .set(...bearer(token))
    .field('webhook_url', receiver.url(hook))
    .attach('file', Buffer.from(content), name);
  expect(res.status).toBe(202);
  return res.body as { id: string; credits_used: number };
};

describe('metrics operators watch', () => {
  it('When jobs wait while no converter runs, then the gateway reports the queue depth, and it falls to 0 once a converter takes them', async () => {
    const before = await gatewayMetrics();
    expect(before.value('markwright_jobs_queue_depth')).toBe(0);
    await convertAsync('a.txt', 'first', '/queued-a');
    await convertAsync('b.txt', 'second', '/queued-b');

    const waiting = await gatewayMetrics();
    expect(waiting.value('markwright_jobs_queue_depth')).toBe(2);
    expect(waiting.value('markwright_jobs_queue_consumers')).toBe(0);

    await stack.startConverter();
    const drained = await eventually(async () => {
      const m = await gatewayMetrics();
      return m.value('markwright_jobs_queue_depth') === 0 && m.value('markwright_jobs_queue_consumers') === 1
        ? m
        : undefined;
    });
    expect(drained.value('markwright_jobs_queue_consumers')).toBe(1);
  });

  it('When conversions complete, then the converter counts them by status and extension and times them per extension', async () => {
    const before = await converterMetrics();
    const completedBefore = before.value('markwright_conversions_total', { status: 'completed', extension: 'md' });
    const timedBefore = before.value('markwright_conversion_duration_seconds_count', { extension: 'md' });
    const chargedBefore = (await gatewayMetrics()).value('markwright_credits_charged_total', { plan: 'business' });

    const accepted = await convertAsync('notes.md', '# Notes\n', '/completed');

    const after = await eventually(async () => {
      const m = await converterMetrics();
      return m.value('markwright_conversions_total', { status: 'completed', extension: 'md' }) > completedBefore
        ? m
        : undefined;
    });
    expect(after.value('markwright_conversions_total', { status: 'completed', extension: 'md' })).toBe(
      completedBefore + 1,
    );
    expect(after.value('markwright_conversion_duration_seconds_count', { extension: 'md' })).toBe(timedBefore + 1);
    expect((await gatewayMetrics()).value('markwright_credits_charged_total', { plan: 'business' })).toBe(
      chargedBefore + accepted.credits_used,
    );
  });

  it('When a conversion fails, then it is counted as failed for its extension and its credits as refunded', async () => {
    const before = await converterMetrics();
    const failedBefore = before.value('markwright_conversions_total', { status: 'failed', extension: 'docx' });
    const refundedBefore = before.value('markwright_credits_refunded_total');

    const res = await request(stack.gateway.url)
      .post('/convert')
      .set(...bearer(token))
      .attach('file', Buffer.from('this is not a zip archive'), 'broken.docx');
    expect(res.status).toBe(422);

    const after = await converterMetrics();
    expect(after.value('markwright_conversions_total', { status: 'failed', extension: 'docx' })).toBe(failedBefore + 1);
    expect(after.value('markwright_credits_refunded_total')).toBe(refundedBefore + 1);
  });

  it('When webhooks are delivered or refused, then the dispatcher counts the attempts by outcome', async () => {
    const before = await dispatcherMetrics();
    const deliveredBefore = before.value('markwright_webhook_attempts_total', { outcome: 'delivered' });
    const retryingBefore = before.value('markwright_webhook_attempts_total', { outcome: 'retrying' });
    receiver.script('/refused-once', [500, 200]);

    await convertAsync('ok.txt', 'delivered', '/delivered');
    await convertAsync('retry.txt', 'refused then delivered', '/refused-once');

    const after = await eventually(
      async () => {
        const m = await dispatcherMetrics();
        return m.value('markwright_webhook_attempts_total', { outcome: 'delivered' }) >= deliveredBefore + 2
          ? m
          : undefined;
      },
      60_000,
      200,
    );
    expect(after.value('markwright_webhook_attempts_total', { outcome: 'delivered' })).toBe(deliveredBefore + 2);
    expect(after.value('markwright_webhook_attempts_total', { outcome: 'retrying' })).toBe(retryingBefore + 1);
  });

  it('When a workspace goes over its convert limit, then the gateway counts the rejection', async () => {
    const free = await stack.workspace('free', 100);
    const before = (await gatewayMetrics()).value('markwright_rate_limit_rejections_total', { limit: 'convert' });
    let status = 0;
    // Requests without a file are refused (422) but still count against the limit (decisions.md).
    for (let i = 0; i <= 20; i++) {
      status = (
        await request(stack.gateway.url)
          .post('/convert')
          .set(...bearer(free.token))
      ).status;
    }
    expect(status).toBe(429);
    expect((await gatewayMetrics()).value('markwright_rate_limit_rejections_total', { limit: 'convert' })).toBe(
      before + 1,
    );
  });
});

describe('metrics of a gateway whose sync requests time out', () => {
  let lonely: Stack;
  beforeAll(async () => {
    lonely = await startStack({ converter: false, env: { SYNC_TIMEOUT_MS: '1000' } });
  }, 60_000);
  afterAll(() => lonely?.stop());

  it('When a sync conversion times out with no converter running, then the gateway counts its credits as charged and refunded', async () => {
    const { token: own } = await lonely.workspace('starter', 10);
    const scrape = () => scrapeMetrics(`http://127.0.0.1:${lonely.gateway.port}/metrics`);
    expect((await scrape()).value('markwright_credits_refunded_total')).toBe(0);
    const res = await request(lonely.gateway.url)
      .post('/convert')
      .set(...bearer(own))
      .attach('file', Buffer.from('never converted'), 'late.txt');
    expect(res.status).toBe(422);
    const after = await scrape();
    expect(after.value('markwright_credits_charged_total', { plan: 'starter' })).toBe(1);
    expect(after.value('markwright_credits_refunded_total')).toBe(1);
  });
});

const DASHBOARD = path.join(__dirname, '../../../deploy/grafana/markwright.json');

/** What the operators' brief asks to watch: the dashboard must query each of these. */
const WATCHED = [
  'markwright_jobs_queue_depth',
  'markwright_conversions_total',
  'markwright_conversion_duration_seconds_bucket',
  'markwright_webhook_attempts_total',
  'markwright_credits_charged_total',
  'markwright_credits_refunded_total',
  'markwright_rate_limit_rejections_total',
];

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr?: string }>;
}

/** The metric names a PromQL expression selects, read with Prometheus' own grammar; throws on a syntax error. */
function metricNamesOf(expr: string): string[] {
  // Grafana fills these in before Prometheus sees the query.
  const query = expr.replace(/\$__(rate_interval|interval|range)/g, '5m');
  const tree = promql.parse(query);
  const names: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) throw new Error(`PromQL syntax error at ${node.from} in: ${expr}`);
      if (node.name !== 'VectorSelector') return;
      const name = node.node.getChild('Identifier');
      if (!name) throw new Error(`a selector without a metric name in: ${expr}`);
      names.push(query.slice(name.from, name.to));
    },
  });
  return names;
}

/** Series names a scrape can hold: a histogram family exposes _bucket, _sum and _count. */
function seriesNames(families: Map<string, string>): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of families) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}

describe('Grafana dashboard', () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
  const panels = dashboard.panels.filter((p) => p.type !== 'row');
  const queried = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr ?? '' })));

  it('When a panel is drawn, then it has at least one query, and every query is valid PromQL naming its metrics', () => {
    expect(panels.length).toBeGreaterThan(0);
    expect(panels.filter((p) => !(p.targets ?? []).some((t) => t.expr)).map((p) => p.title)).toEqual([]);
    for (const { expr } of queried) expect(metricNamesOf(expr).length).toBeGreaterThan(0);
  });

  it('When the dashboard queries a metric, then one of the three services exposes it on /metrics', async () => {
    if (!stack.converter) await stack.startConverter();
    const exposed = new Set([
      ...seriesNames((await gatewayMetrics()).families),
      ...seriesNames((await converterMetrics()).families),
      ...seriesNames((await dispatcherMetrics()).families),
    ]);
    const unknown = queried.flatMap(({ panel, expr }) =>
      metricNamesOf(expr)
        .filter((name) => !exposed.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('When an operator opens the dashboard, then every metric they watch has a panel', () => {
    const names = new Set(queried.flatMap(({ expr }) => metricNamesOf(expr)));
    expect(WATCHED.filter((name) => !names.has(name))).toEqual([]);
  });
});
