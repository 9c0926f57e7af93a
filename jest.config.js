/** One jest run for the whole workspace; TypeScript compiled by SWC, ESM-only dependencies included. */
module.exports = {
  testEnvironment: 'node',
  // file-type (ESM only) exports for require() under Node's `module-sync` condition only, which jest lacks.
  moduleNameMapper: {
    '^file-type$': require.resolve('file-type', {
      paths: [require('node:path').join(__dirname, 'packages/conversion')],
    }),
  },
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/deploy', '<rootDir>/scripts', '<rootDir>/bench'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: [
    '/node_modules/\\.pnpm/(?!(uuid|got|p-limit|yocto-queue|postgrator|pptxgenjs|marked|file-type|strtok3|token-types|uint8array-extras|@tokenizer\\+inflate|@tokenizer\\+token|@borewit\\+text-codec)@)',
  ],
  testTimeout: 60_000,
  // One file at a time: the broker-restart test stops RabbitMQ, which no other file may be using then.
  maxWorkers: 1,
};
