import { z } from 'zod';

/** Response bodies of the jobs extensions this file covers (extensions.md E10, E11); same conventions as api.ts. */

export const atCapacityErrorSchema = z.object({ error: z.literal('at_capacity'), message: z.string() }).meta({
  id: 'AtCapacityError',
  description:
    'The jobs queue holds MAX_QUEUED_JOBS jobs; nothing was charged or stored. Retry after Retry-After seconds',
});
export type AtCapacityError = z.infer<typeof atCapacityErrorSchema>;

export const webhookRedeliveryAcceptedSchema = z
  .object({
    id: z.uuid().meta({ description: 'Identifier of the conversion' }),
    message: z.string(),
    status_url: z.string().meta({ description: 'Where webhook_delivered shows the outcome: /api/v1/conversions/<id>' }),
  })
  .meta({ id: 'WebhookRedeliveryAccepted', description: 'A new series of up to 3 attempts is under way' });
export type WebhookRedeliveryAccepted = z.infer<typeof webhookRedeliveryAcceptedSchema>;

export const webhookRedeliveryConflictSchema = z
  .object({ error: z.enum(['not_finished', 'no_webhook']), message: z.string() })
  .meta({
    id: 'WebhookRedeliveryConflict',
    description:
      'not_finished: the conversion is pending or processing; no_webhook: it was not started with webhook_url',
  });
export type WebhookRedeliveryConflict = z.infer<typeof webhookRedeliveryConflictSchema>;
