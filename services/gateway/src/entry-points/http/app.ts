import express, { type ErrorRequestHandler } from 'express';
import helmet from 'helmet';
import type Redis from 'ioredis';
import { Counter, Histogram, type Registry } from 'prom-client';
import { AppError } from '../../domain/app-error';
import { acceptConversion, type AcceptDeps } from '../../domain/accept-conversion';
import { resolveConvertRequest, type ConvertInputDeps } from '../../domain/resolve-convert-input';
import { validateListRequest } from '../../domain/list-request';
import { getConversion, listWorkspaceConversions } from '../../domain/read-conversions';
import { readIdempotencyKey, replayIdempotent } from '../../domain/idempotency';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '@markwright/contracts';
import { SERVER_UPLOAD_CAP_BYTES } from '../../domain/plans';
import { authenticate, workspaceOf } from './auth';
import { createRateLimits } from './rate-limits';
import { receiveUpload, type UploadOptions } from './upload';
import { publisherHoldingPlace, refuseAtCapacity } from './capacity';
import type { JobAdmission } from '../../domain/job-admission';
import { redeliverWebhook, type RedeliverDeps } from '../../domain/redeliver-webhook';
import { requestContext } from './request-id';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi';
import { docsRoutes } from './docs';
import { addJobControlRoutes } from './job-control-routes';
import type { JobControlDeps } from '../../domain/job-control';
import { publicUrlOf } from './public-url';
import { redactedUrl } from './redacted-url';
import { routeLabel } from './route-label';
import { httpStatusOf } from './error-status';

export interface AppDeps extends AcceptDeps, Pick<JobControlDeps, 'cancellations' | 'jobControl'> {
  redis?: Redis;
  rateLimitPrefix: string;
  rateLimitMultiplier?: number;
  registry: Registry;
  rateLimited: (limit: 'convert' | 'api') => void;
  ready: () => Promise<boolean>;
  admission: JobAdmission;
  convertInput: ConvertInputDeps;
  redelivery: Omit<RedeliverDeps, 'db' | 'logger'>;
  /** Concurrent uploads per workspace and where uploads are spooled (upload.ts). */
  uploads?: UploadOptions;
  /** PUBLIC_BASE_URL: the API's public address, for the links of list pages. */
  publicBaseUrl?: string;
}

/** The public API under /api/v1 plus health and metrics. Routes translate HTTP; the domain decides. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // helmet's headers with a CSP for a JSON API: nothing may load or frame it. A route serving
  // HTML (e.g. /docs) relaxes it by setting its own Content-Security-Policy header.
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      },
    }),
  );
  app.set('query parser', 'simple');
  app.use(requestContext(deps.logger));
  const limits = createRateLimits(deps.redis, deps.rateLimitPrefix, deps.rateLimited, deps.rateLimitMultiplier);
  const requests = new Counter({
    name: 'markwright_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['route', 'status'],
    registers: [deps.registry],
  });
  const latency = new Histogram({
    name: 'markwright_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['route'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
    registers: [deps.registry],
  });
  app.use((req, res, next) => {
    const end = latency.startTimer();
    const route = routeLabel(req.method, req.path);
    res.on('finish', () => {
      requests.inc({ route, status: String(res.statusCode) });
      end({ route });
    });
    next();
  });

  app.get(['/livez', '/healthz'], (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = await deps.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'unavailable' });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });

  // The contract and its reference page are public: registered before the authenticated router.
  const openApiDocument = buildOpenApiDocument();
  app.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApiDocument);
  });
  app.use(docsRoutes());

  const api = express.Router();
  api.use(authenticate(deps.db));

  api.post(
    '/convert',
    limits.convert,
    refuseAtCapacity(deps.admission),
    receiveUpload(deps.uploads),
    async (req, res) => {
      const workspace = workspaceOf(req);
      const fields = (req.body ?? {}) as Record<string, unknown>;
      const key = readIdempotencyKey(req.get(IDEMPOTENCY_KEY_HEADER), req.file, fields);
      const answer =
        (key && (await replayIdempotent(deps.db, workspace.id, key))) ||
        (await acceptConversion(
          { ...deps, logger: req.log, publisher: publisherHoldingPlace(res, deps.publisher) },
          workspace,
          await resolveConvertRequest(deps.convertInput, workspace.plan, req.file, fields),
          key,
        ));
      if (answer.replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      res.status(answer.kind === 'queued' ? 202 : 200).json(answer.body);
    },
  );

  api.get('/conversions', limits.other, async (req, res) => {
    const workspace = workspaceOf(req);
    const query = validateListRequest(req.query as Record<string, unknown>);
    const echoed: Record<string, string> = {};
    if (query.status) echoed.status = query.status;
    if (req.query.per_page !== undefined) echoed.per_page = String(query.perPage);
    const path = publicUrlOf(req, deps.publicBaseUrl, '/conversions');
    res.json(await listWorkspaceConversions(deps.db, workspace.id, query, { path, echoed }));
  });

  api.get('/conversions/:id', limits.other, async (req, res) => {
    res.json(await getConversion(deps.db, workspaceOf(req).id, String(req.params.id)));
  });

  addJobControlRoutes(api, deps, limits.other);
  api.post('/conversions/:id/webhook/redeliver', limits.other, async (req, res) => {
    const redelivery = { ...deps.redelivery, db: deps.db, logger: req.log };
    res.status(202).json(await redeliverWebhook(redelivery, workspaceOf(req).id, String(req.params.id)));
  });

  api.use(limits.other, () => {
    throw AppError.routeNotFound();
  });

  app.use('/api/v1', api);
  app.use(() => {
    throw AppError.routeNotFound();
  });
  app.use(errorHandler());
  return app;
}

/**
 * The one error handler: AppError → the contract's body; a client error raised by Express or a
 * body parser → 400 or 413 with our own words; anything else → 500. Internals (messages, paths,
 * stacks) reach the log only, never the response.
 */
function errorHandler(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof AppError) {
      res.status(httpStatusOf(err)).set(err.headers).json(err.body);
      return;
    }
    const status = Number(
      (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode,
    );
    if (status === 413) {
      const tooLarge = AppError.payloadTooLarge(SERVER_UPLOAD_CAP_BYTES);
      res.status(httpStatusOf(tooLarge)).json(tooLarge.body);
      return;
    }
    if (status >= 400 && status < 500) {
      const bad = AppError.badRequest();
      res.status(httpStatusOf(bad)).json(bad.body);
      return;
    }
    req.log.error({ err, path: redactedUrl(req.path) }, 'unhandled error');
    res.status(500).json({ error: 'internal_error', message: 'Something went wrong on our side.' });
  };
}
