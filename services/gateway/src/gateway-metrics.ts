import { Counter, Gauge, type Registry } from 'prom-client';
import type { CreditsMeter } from './domain/accept-conversion';
import type { JobsQueueState } from './data-access/jobs-queue-probe';

export interface GatewayMetrics {
  credits: CreditsMeter;
  rateLimited(limit: 'convert' | 'api'): void;
  rejectedAtCapacity(): void;
  webhookRedelivered(): void;
}

/** What operators watch on a gateway: the jobs queue (read at each scrape), credits moved and rate-limit rejections. */
export function createGatewayMetrics(registry: Registry, readJobsQueue: () => Promise<JobsQueueState>): GatewayMetrics {
  new Gauge({
    name: 'markwright_jobs_queue_depth',
    help: 'Conversion jobs waiting in the jobs queue for a converter (NaN when the broker could not be read)',
    registers: [registry],
    async collect() {
      this.set(
        await readJobsQueue().then(
          (s) => s.waiting,
          () => NaN,
        ),
      );
    },
  });
  new Gauge({
    name: 'markwright_jobs_queue_consumers',
    help: 'Converters consuming the jobs queue (NaN when the broker could not be read)',
    registers: [registry],
    async collect() {
      this.set(
        await readJobsQueue().then(
          (s) => s.consumers,
          () => NaN,
        ),
      );
    },
  });
  const charged = new Counter({
    name: 'markwright_credits_charged_total',
    help: 'Credits charged for accepted conversions, by plan',
    labelNames: ['plan'],
    registers: [registry],
  });
  const refunded = new Counter({
    name: 'markwright_credits_refunded_total',
    help: 'Credits given back for failed conversions',
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'markwright_rate_limit_rejections_total',
    help: 'Requests answered 429, by limit (convert, api)',
    labelNames: ['limit'],
    registers: [registry],
  });
  const atCapacity = new Counter({
    name: 'markwright_convert_rejected_at_capacity_total',
    help: 'POST /convert requests answered 503 at_capacity (jobs queue at MAX_QUEUED_JOBS)',
    registers: [registry],
  });
  const redelivered = new Counter({
    name: 'markwright_webhook_redeliveries_total',
    help: 'Webhook redeliveries requested (POST /conversions/{id}/webhook/redeliver answered 202)',
    registers: [registry],
  });
  return {
    rejectedAtCapacity: () => atCapacity.inc(),
    webhookRedelivered: () => redelivered.inc(),
    credits: {
      charged: (plan, credits) => charged.inc({ plan }, credits),
      refunded: (credits) => {
        if (credits > 0) refunded.inc(credits);
      },
    },
    rateLimited: (limit) => rejections.inc({ limit }),
  };
}
