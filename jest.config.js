/** One jest run for the whole workspace; TypeScript compiled by SWC, ESM-only dependencies included. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/deploy', '<rootDir>/scripts'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: ['/node_modules/\\.pnpm/(?!(uuid|got|p-limit|yocto-queue|postgrator|pptxgenjs)@)'],
  testTimeout: 60_000,
  // One file at a time: the broker-restart test stops RabbitMQ, which no other file may be using then.
  maxWorkers: 1,
};
