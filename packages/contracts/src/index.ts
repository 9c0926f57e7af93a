export * from './messages';
export * from './topology';
export * from './broker';
export * from './timestamps';
export * from './api';
export * from './consumer';
/** Webhook attempts per conversion (decisions.md): the one home the gateway and the dispatcher both import. */
export const WEBHOOK_MAX_ATTEMPTS = 3;
