export * from './messages';
export * from './topology';
export * from './broker';
export * from './timestamps';
export * from './webhooks';
export * from './api';
export * from './consumer';
export * from './jobs-api';
