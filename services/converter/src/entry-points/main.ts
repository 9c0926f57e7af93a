import { createLogger, loadConfig, runMain } from '@markwright/config';
import { startConverter } from '../converter-service';

runMain(async () => {
  const config = loadConfig();
  const logger = createLogger('converter', config.LOG_LEVEL);
  const service = await startConverter(config, logger);
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'stopping after jobs in flight');
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
});
