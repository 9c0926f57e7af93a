/** `pnpm test:faults`: the fault suite alone (private PostgreSQL and RabbitMQ, services as processes); not part of `pnpm test`. */
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/faults'],
  testMatch: ['**/faults.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 900_000,
};
