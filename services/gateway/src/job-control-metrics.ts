import { Counter, type Registry } from 'prom-client';
import type { JobControlMeter } from './domain/job-control';

/** Cancels (E7) and deletions (E8, by request or by retention) for operators. */
export function createJobControlMetrics(registry: Registry): JobControlMeter {
  const cancelled = new Counter({
    name: 'markwright_conversions_cancelled_total',
    help: 'Conversions cancelled by POST /conversions/{id}/cancel',
    registers: [registry],
  });
  const deleted = new Counter({
    name: 'markwright_conversions_deleted_total',
    help: 'Conversions deleted, by reason (request: DELETE /conversions/{id}; retention: RESULT_RETENTION_HOURS)',
    labelNames: ['reason'],
    registers: [registry],
  });
  return {
    cancelled: () => cancelled.inc(),
    deleted: (reason, count) => deleted.inc({ reason }, count),
  };
}
