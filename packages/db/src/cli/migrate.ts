import { loadConfig, runMain } from '@markwright/config';
import { migrate } from '../migrate';

runMain(async () => {
  const config = loadConfig();
  const { applied } = await migrate(config.DATABASE_URL);
  process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date.\n');
});
