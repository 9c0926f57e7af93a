import { createLogger, loadConfig, runMain } from '@markwright/config';
import { startGateway } from '../gateway';

runMain(async () => {
  const config = loadConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const gateway = await startGateway(config, logger);
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'stopping');
    gateway.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
});
