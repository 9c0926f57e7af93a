import { Counter, type Registry } from 'prom-client';
import type { AttemptOutcome } from './domain/deliver';

/** Webhook attempts by outcome: a rising gave_up rate means receivers are down or rejecting us. */
export function createWebhookMetrics(registry: Registry): (outcome: AttemptOutcome) => void {
  const attempts = new Counter({
    name: 'markwright_webhook_attempts_total',
    help: 'Webhook attempts made, by outcome (delivered, retrying, gave_up)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return (outcome) => attempts.inc({ outcome });
}
