import { z } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import {
  atCapacityErrorSchema,
  conversionDetailSchema,
  conversionFailedErrorSchema,
  conversionPageSchema,
  insufficientCreditsErrorSchema,
  messageOnlyErrorSchema,
  notFoundErrorSchema,
  queuedConversionSchema,
  syncConversionResultSchema,
  validationErrorSchema,
  webhookPayloadSchema,
  webhookRedeliveryAcceptedSchema,
  webhookRedeliveryConflictSchema,
} from '@markwright/contracts';
import { convertFormSchema } from '../../domain/convert-request';
import { listQuerySchema } from '../../domain/list-request';
import { OTHER_ENDPOINTS_PER_MINUTE, PLAN_NAMES, PLANS, SERVER_UPLOAD_CAP_BYTES } from '../../domain/plans';
import {
  idempotencyConflictResponse,
  idempotencyRequestHeaders,
  registerJobControlPaths,
  replayedHeader,
} from './openapi-job-control';

export const OPENAPI_PATH = '/api/v1/openapi.json';
const BEARER = 'bearerAuth';

const json = (schema: z.ZodType, description: string, headers?: z.ZodObject): ResponseConfig => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

const rateLimitHeaders = z.object({
  RateLimit: z.string().meta({ description: 'IETF draft-8: the remaining budget of this window' }),
  'RateLimit-Policy': z.string().meta({ description: 'IETF draft-8: the limit and the window (60 s)' }),
});
const retryAfterHeaders = rateLimitHeaders.extend({
  'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying' }),
});

const common = {
  401: json(
    messageOnlyErrorSchema,
    'Missing, malformed, revoked or invalid Bearer token: {"message":"Unauthenticated."}',
  ),
  429: json(
    messageOnlyErrorSchema,
    `Rate limit of the workspace exceeded (POST /convert: ${PLAN_NAMES.map((p) => `${p} ${PLANS[p].convertsPerMinute}`).join(', ')} per minute; other endpoints ${OTHER_ENDPOINTS_PER_MINUTE})`,
    retryAfterHeaders,
  ),
};

const SIGNATURE_DESCRIPTION =
  'Present only when webhook_secret was given: the lowercase hex HMAC-SHA256 of the request body exactly as sent ' +
  '(compact JSON), keyed with webhook_secret. Compute it over the raw bytes before parsing and compare in constant time.';

/** The OpenAPI 3.1 document, generated from the very zod schemas that validate requests and type responses. */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'mwk_ followed by 40 base62 characters',
    description: 'A workspace API token; conversions, credits and rate limits belong to its workspace.',
  });

  const maxPlanBytes = Math.max(...PLAN_NAMES.map((p) => PLANS[p].maxFileBytes));
  registry.registerPath({
    method: 'post',
    path: '/convert',
    operationId: 'convert',
    summary: 'Convert a file to Markdown',
    description:
      'Without webhook_url the answer waits for the result (200). With webhook_url the conversion is queued (202), ' +
      'the result is POSTed to it (see the conversion.finished webhook) and can be polled at status_url. ' +
      'Credits are charged upfront and refunded when the conversion fails.',
    request: {
      headers: idempotencyRequestHeaders,
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: convertFormSchema(maxPlanBytes) } },
      },
    },
    responses: {
      200: json(
        syncConversionResultSchema,
        'No webhook_url: the conversion succeeded',
        rateLimitHeaders.extend(replayedHeader),
      ),
      202: json(
        queuedConversionSchema,
        'webhook_url given: the conversion is queued',
        rateLimitHeaders.extend(replayedHeader),
      ),
      401: common[401],
      402: json(insufficientCreditsErrorSchema, 'The balance is below the cost; nothing is charged'),
      409: idempotencyConflictResponse(json),
      413: json(
        messageOnlyErrorSchema,
        `The upload exceeds the server cap of ${SERVER_UPLOAD_CAP_BYTES / (1024 * 1024)} MB, before any validation`,
      ),
      422: {
        description:
          'A parameter failed validation (ValidationError, nothing charged), or a sync conversion failed ' +
          '(ConversionFailedError, credits refunded)',
        content: {
          'application/json': { schema: z.union([validationErrorSchema, conversionFailedErrorSchema]) },
        },
      },
      429: json(
        messageOnlyErrorSchema,
        `${common[429].description}, or the workspace already has its uploads in flight (UPLOADS_PER_WORKSPACE, default 4)`,
        retryAfterHeaders,
      ),
      503: json(
        atCapacityErrorSchema,
        'The jobs queue is full (MAX_QUEUED_JOBS); nothing charged or stored, sync requests too',
        z.object({ 'Retry-After': z.int().min(0).meta({ description: 'Seconds to wait before retrying' }) }),
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/conversions',
    operationId: 'listConversions',
    summary: 'List conversions',
    description: 'A page of the workspace’s conversions, newest first (ties by id).',
    request: { query: listQuerySchema },
    responses: {
      200: json(conversionPageSchema, 'A page; list items omit markdown and metadata', rateLimitHeaders),
      401: common[401],
      422: json(validationErrorSchema, 'Invalid status, or per_page or page out of range'),
      429: common[429],
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/conversions/{id}',
    operationId: 'getConversion',
    summary: 'Get a conversion',
    description: 'Status and result of one conversion; poll it until completed or failed.',
    request: { params: z.object({ id: z.uuid().meta({ description: 'Identifier of the conversion' }) }) },
    responses: {
      200: json(conversionDetailSchema, 'The conversion; its fields depend on its status', rateLimitHeaders),
      401: common[401],
      404: json(notFoundErrorSchema, 'Unknown id, malformed id, or a conversion of another workspace'),
      429: common[429],
    },
  });

  registerJobControlPaths(registry, json, common, rateLimitHeaders);

  registry.registerPath({
    method: 'post',
    path: '/conversions/{id}/webhook/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a finished conversion’s webhook again',
    description:
      'A new series of up to 3 attempts with the retry delays, starting now: the same event (same webhook-id and body). ' +
      'webhook_delivered and can_retry_webhook of GET /conversions/{id} follow the new series. A retry of an earlier ' +
      'series still pending is dropped.',
    request: { params: z.object({ id: z.uuid().meta({ description: 'Identifier of the conversion' }) }) },
    responses: {
      202: json(webhookRedeliveryAcceptedSchema, 'The new series is under way', rateLimitHeaders),
      401: common[401],
      404: json(notFoundErrorSchema, 'Unknown id, malformed id, or a conversion of another workspace'),
      409: json(webhookRedeliveryConflictSchema, 'not_finished: pending or processing; no_webhook: a sync conversion'),
      429: common[429],
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    security: [],
    responses: { 200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: {} } } } },
  });

  registry.registerWebhook({
    method: 'post',
    path: 'conversion.finished',
    operationId: 'conversionFinished',
    summary: 'Conversion finished',
    description:
      'POSTed to webhook_url when an asynchronous conversion is completed or failed. Answer 2xx within 30 s; ' +
      'otherwise it is retried after 60 s and again after 300 s (3 attempts at most). The same id may arrive twice.',
    security: [],
    request: {
      headers: z.object({
        'X-Webhook-Signature': z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .optional()
          .meta({ description: SIGNATURE_DESCRIPTION }),
        'X-Webhook-Conversion-Id': z.uuid().meta({ description: 'Identifier of the conversion, for correlation' }),
        'X-Webhook-Timestamp': z.string().meta({ description: 'Unix time of this attempt, in seconds' }),
        'X-Webhook-Attempt': z.string().meta({ description: 'Attempt number: 1, 2 or 3' }),
        'webhook-id': z.uuid().meta({
          description: 'Standard Webhooks message id: the conversion id, the same on every attempt and redelivery',
        }),
        'webhook-timestamp': z.string().meta({ description: 'Standard Webhooks: Unix seconds of this attempt' }),
        'webhook-signature': z
          .string()
          .regex(/^v1,[A-Za-z0-9+/]+=*$/)
          .optional()
          .meta({
            description:
              'Standard Webhooks, only with webhook_secret: v1, + base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}` ' +
              "keyed with the secret's UTF-8 bytes (give a Standard Webhooks library the secret's bytes in base64)",
          }),
      }),
      body: { required: true, content: { 'application/json': { schema: webhookPayloadSchema } } },
    },
    responses: {
      '2XX': { description: 'Any 2xx acknowledges the delivery' },
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Markwright API',
      version: '1.0.0',
      description:
        'Converts documents (PDF, Office, OpenDocument, HTML, e-books, images, audio…) to Markdown over JSON REST. ' +
        'Every request carries a workspace Bearer token.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ [BEARER]: [] }],
  });
}
