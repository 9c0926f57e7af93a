import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type Redis from 'ioredis';
import { AppError } from '../../domain/app-error';
import { OTHER_ENDPOINTS_PER_MINUTE, PLANS, RATE_WINDOW_MS } from '../../domain/plans';
import { workspaceOf } from './auth';

/** Counters live in Redis when configured (shared by every replica), otherwise in this process. */
function storeFor(redis: Redis | undefined, prefix: string): Store | undefined {
  if (!redis) return undefined;
  return new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as never,
  });
}

function limiter(
  limit: (plan: keyof typeof PLANS) => number,
  name: 'convert' | 'api',
  store: Store | undefined,
  onReject: (limit: 'convert' | 'api') => void,
): RequestHandler {
  return rateLimit({
    windowMs: RATE_WINDOW_MS,
    limit: (req) => limit(workspaceOf(req).plan),
    identifier: name,
    keyGenerator: (req) => workspaceOf(req).id,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store,
    validate: false,
    handler: (_req, _res, next) => {
      onReject(name);
      next(AppError.tooManyRequests());
    },
  });
}

/** Per-workspace limits: every token of a workspace draws on one budget. */
export function createRateLimits(
  redis: Redis | undefined,
  keyPrefix: string,
  onReject: (limit: 'convert' | 'api') => void,
  multiplier = 1,
) {
  return {
    convert: limiter(
      (plan) => PLANS[plan].convertsPerMinute * multiplier,
      'convert',
      storeFor(redis, `${keyPrefix}:rl:convert:`),
      onReject,
    ),
    other: limiter(
      () => OTHER_ENDPOINTS_PER_MINUTE * multiplier,
      'api',
      storeFor(redis, `${keyPrefix}:rl:api:`),
      onReject,
    ),
  };
}
