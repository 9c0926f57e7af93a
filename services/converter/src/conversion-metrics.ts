import { Counter, Histogram, type Registry } from 'prom-client';
import type { ConversionObserver } from './domain/run-conversion';

/** Seconds: most documents take well under a second, OCR and speech take tens, the deadline is 110. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** What operators watch on a converter: outcomes and time per format, and the credits given back. */
export function createConversionMetrics(registry: Registry): ConversionObserver {
  const conversions = new Counter({
    name: 'markwright_conversions_total',
    help: 'Finished conversions by status (completed, failed) and file extension',
    labelNames: ['status', 'extension'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'markwright_conversion_duration_seconds',
    help: 'Time spent converting one document, by file extension',
    labelNames: ['extension'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const refunded = new Counter({
    name: 'markwright_credits_refunded_total',
    help: 'Credits given back for failed conversions',
    registers: [registry],
  });
  return {
    finished(extension, status, seconds) {
      conversions.inc({ status, extension });
      if (seconds !== undefined) duration.observe({ extension }, seconds);
    },
    refunded(credits) {
      if (credits > 0) refunded.inc(credits);
    },
  };
}
