import { ConfigError, loadConfig } from '../src';

describe('configuration', () => {
  it('When nothing is set, then the defaults of decisions.md apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/markwright',
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
      PORT: 8080,
      WEBHOOK_RETRY_DELAYS_MS: [60000, 300000],
      WEBHOOK_TIMEOUT_MS: 30000,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
      SYNC_TIMEOUT_MS: 120000,
    });
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('When a variable has a bad value, then the error names the variable and the value', () => {
    expect(() => loadConfig({ SYNC_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ SYNC_TIMEOUT_MS: 'soon' })).toThrow(/SYNC_TIMEOUT_MS: .*\(got "soon"\)/);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '60s' })).toThrow(
      /WEBHOOK_RETRY_DELAYS_MS: must be a comma-separated list/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x@y/z' })).toThrow(/DATABASE_URL: must be a postgresql:\/\/ URL/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'sure' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_NETWORKS: must be true or false/,
    );
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'abc' })).toThrow(/WEBHOOK_SECRET_KEY: must be 32 bytes/);
    expect(() => loadConfig({ RATE_LIMIT_MULTIPLIER: '0' })).toThrow(/RATE_LIMIT_MULTIPLIER/);
  });

  it('When values are valid, then they are parsed to their types', () => {
    const config = loadConfig({
      WEBHOOK_RETRY_DELAYS_MS: '1000, 2000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'TRUE',
      PORT: '9000',
    });
    expect(config.WEBHOOK_RETRY_DELAYS_MS).toEqual([1000, 2000]);
    expect(config.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(config.PORT).toBe(9000);
  });
});
