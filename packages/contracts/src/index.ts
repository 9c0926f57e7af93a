export * from './messages';
export * from './topology';
export * from './broker';
export * from './timestamps';
export * from './consumer';
export const WEBHOOK_MAX_ATTEMPTS = 3;
