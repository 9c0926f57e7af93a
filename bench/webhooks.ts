import got from 'got';
import request from 'supertest';
import { createTestEnv, silentLogger } from '@markwright/test-support';
import { startGateway } from '../services/gateway/src/gateway';
import { startConverter } from '../services/converter/src/converter-service';
import { startDispatcher } from '../services/dispatcher/src/dispatcher-service';
import { createWorkspace } from '../services/gateway/src/domain/workspaces';
import { makeCertificate, startReceiver } from '../services/dispatcher/test/receiver';

const CONVERSIONS = Number(process.env.BENCH_WEBHOOKS ?? 200);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Webhook delivery on this machine: latency from "conversion finished" (completed_at) to the
 * receiver getting attempt 1, and deliveries per second, against a baseline measured in the
 * same run: a direct HTTPS POST of the same size to the same receiver.
 */
export async function runWebhookBench(): Promise<string> {
  const cert = makeCertificate();
  const extraCerts = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = cert.certFile;
  const env = await createTestEnv({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', CONVERTER_CONCURRENCY: '2' });
  const gateway = await startGateway(env.config, silentLogger);
  const converter = await startConverter(env.config, silentLogger);
  const dispatcher = await startDispatcher(env.config, silentLogger);
  const receiver = await startReceiver(cert);
  try {
    const direct: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await got.post(receiver.url('/baseline'), { body: '{"x":1}', https: { certificateAuthority: cert.cert } });
      direct.push(performance.now() - t);
    }
    const { token } = await createWorkspace(gateway.db, { name: 'bench', plan: 'business', credits: CONVERSIONS * 2 });
    const ids: string[] = [];
    for (let i = 0; i < CONVERSIONS; i++) {
      const res = await request(gateway.url)
        .post('/convert')
        .set('Authorization', `Bearer ${token}`)
        .field('webhook_url', receiver.url('/hook'))
        .attach('file', Buffer.from(`note ${i}`), 'n.txt');
      ids.push(res.body.id);
    }
    const deadline = Date.now() + 300_000;
    while (receiver.for('/hook').length < CONVERSIONS && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const hits = receiver.for('/hook');
    const rows = await gateway.db.conversion.findMany({
      where: { id: { in: ids } },
      select: { id: true, completedAt: true },
    });
    const finished = new Map(rows.map((r) => [r.id, r.completedAt!.getTime()]));
    const latency = hits.map((h) => h.at - finished.get(String(h.headers['x-webhook-conversion-id']))!);
    const span = (Math.max(...hits.map((h) => h.at)) - Math.min(...hits.map((h) => h.at))) / 1000;
    const p50 = percentile(latency, 50);
    const p99 = percentile(latency, 99);
    const base = percentile(direct, 50);
    return [
      `Webhooks: ${hits.length}/${CONVERSIONS} delivered to a local HTTPS receiver.`,
      '',
      '| measure | value | ÷ direct POST p50 |',
      '|---|---|---|',
      `| direct HTTPS POST p50 (baseline) | ${base.toFixed(1)} ms | 1.0× |`,
      `| finished → attempt 1 received, p50 | ${p50.toFixed(0)} ms | ${(p50 / base).toFixed(1)}× |`,
      `| finished → attempt 1 received, p99 | ${p99.toFixed(0)} ms | ${(p99 / base).toFixed(1)}× |`,
      `| deliveries per second (bounded by conversion rate) | ${(hits.length / Math.max(span, 0.001)).toFixed(1)} | |`,
      '',
    ].join('\n');
  } finally {
    // The certificate file goes with this bench: later benches' child processes must not be told to load it.
    if (extraCerts === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = extraCerts;
    await receiver.close();
    await dispatcher.stop();
    await converter.stop();
    await gateway.stop();
    await env.cleanup();
    cert.cleanup();
  }
}
