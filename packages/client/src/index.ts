export {
  MarkwrightClient,
  type ConversionList,
  type ConvertOptions,
  type ListConversionsOptions,
  type MarkwrightClientOptions,
  type WaitOptions,
} from './client';
export {
  AtCapacityError,
  AuthenticationError,
  ConflictError,
  ConversionFailedError,
  ConversionTimeoutError,
  InsufficientCreditsError,
  MarkwrightConnectionError,
  MarkwrightError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  RetryAfterError,
  ValidationError,
} from './errors';
export { fileFromPath, type FileInput } from './file-input';
export { verifyWebhook } from './webhooks';
export type * from './types';
