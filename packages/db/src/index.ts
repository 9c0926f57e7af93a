export { connectDb, createDb, preparedQuery, type ConnectionErrorListener, type Db } from './client';
export { migrate, ensureDatabase } from './migrate';
export { Prisma } from './generated/prisma/client';
export type { Conversion, Workspace, ApiToken, CreditTransaction, WebhookAttempt } from './generated/prisma/client';
export * from './lifecycle';
export { uuidv7 } from './ids';
export { isConnectionLoss, retryOnConnectionLoss } from './reconnect';
export { storableJson, storableText } from './storable-text';
export { namedStatement } from './named-statement';
