/** One jest run for the whole workspace; TypeScript compiled by SWC, ESM-only dependencies included. */
module.exports = {
  testEnvironment: 'node',
  // file-type (ESM only) exports for require() under Node's `module-sync` condition only, which jest lacks.
  moduleNameMapper: {
    // Workspace code uses the client's sources; packages/client/test/package.test.ts checks its built dist.
    '^@markwright/client$': '<rootDir>/packages/client/src/index.ts',
    '^file-type$': require.resolve('file-type', {
      paths: [require('node:path').join(__dirname, 'packages/conversion')],
    }),
  },
  roots: [
    '<rootDir>/packages',
    '<rootDir>/services',
    '<rootDir>/deploy',
    '<rootDir>/scripts',
    '<rootDir>/bench',
    '<rootDir>/clients',
    '<rootDir>/test',
  ],
  testMatch: ['**/test/**/*.test.ts'],
  // The full fault suite (private servers, minutes per scenario) is `pnpm test:faults`; its fast subset runs here.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/faults/faults\\.test\\.ts$'],
  transform: { '^.+\\.(t|j|mj)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  transformIgnorePatterns: [
    '/node_modules/\\.pnpm/(?!(uuid|got|p-limit|yocto-queue|postgrator|pptxgenjs|marked|file-type|strtok3|token-types|uint8array-extras|@tokenizer\\+inflate|@tokenizer\\+token|@borewit\\+text-codec|llama-tokenizer-js)@)',
  ],
  testTimeout: 60_000,
  // One file at a time: the broker-restart test stops RabbitMQ, which no other file may be using then.
  maxWorkers: 1,
};
