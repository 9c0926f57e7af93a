import type { Logger } from '@markwright/config';
import {
  type Broker,
  CANCEL_ROUTING_KEY,
  conversionCancelSchema,
  decode,
  listenToEvents,
  type TopologyNames,
} from '@markwright/contracts';

/**
 * The converter's cancel entry point (E7): its own exclusive queue bound to the cancel
 * broadcast, so every converter hears every cancel and the one running the job aborts it. A
 * cancel is only a hint to stop early: the row is already failed and refunded by the gateway,
 * so a lost message costs work, never money (the late result is dropped).
 */
export async function consumeCancels(
  broker: Broker,
  names: TopologyNames,
  logger: Logger,
  cancel: (conversionId: string) => boolean,
): Promise<{ stop(): Promise<void> }> {
  const listening = await listenToEvents(broker, names, CANCEL_ROUTING_KEY, (content) => {
    const event = decode(conversionCancelSchema, content);
    if (event && cancel(event.conversionId)) {
      logger.info({ conversionId: event.conversionId }, 'conversion cancelled: worker task aborted');
    }
  });
  return {
    async stop() {
      await listening.close();
    },
  };
}
