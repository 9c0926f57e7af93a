/** `.ci/run`'s own steps after `pnpm test` (the real image, the bare machine): not part of `pnpm test`. */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/ci'],
  testMatch: ['**/*.ci.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 1_800_000,
};
