import type { Logger } from '@markwright/config';

/** A timer entry point: runs `sweep` every `intervalMs`, never two at once; stop waits for the running one. */
export function startDeliverySweeper(
  sweep: () => Promise<unknown>,
  intervalMs: number,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= sweep()
      .then(() => undefined)
      .catch((err: Error) => logger.warn({ err: err.message }, 'webhook sweep failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
