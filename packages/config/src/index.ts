export * from './env';
export * from './logger';
export * from './startup';
export * from './health-server';
