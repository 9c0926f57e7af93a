import express, { type ErrorRequestHandler, type Request } from 'express';
import type Redis from 'ioredis';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Logger } from '@markwright/config';
import { AppError } from '../../domain/app-error';
import { acceptConversion, type AcceptDeps } from '../../domain/accept-conversion';
import { validateConvertRequest } from '../../domain/convert-request';
import { validateListRequest } from '../../domain/list-request';
import { renderConversionDetail, renderConversionListItem } from '../../domain/conversion-view';
import { renderPaginator } from '../../domain/paginator';
import { findConversionForWorkspace, listConversions } from '../../data-access/conversion-repository';
import { authenticate, workspaceOf } from './auth';
import { createRateLimits } from './rate-limits';
import { receiveUpload } from './upload';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi';
import { docsRoutes } from './docs';

export interface AppDeps extends AcceptDeps {
  redis?: Redis;
  rateLimitPrefix: string;
  registry: Registry;
  ready: () => Promise<boolean>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The public API under /api/v1 plus health and metrics. Routes translate HTTP; the domain decides. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const limits = createRateLimits(deps.redis, deps.rateLimitPrefix);
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
    res.on('finish', () => {
      const route = routeLabel(req);
      requests.inc({ route, status: String(res.statusCode) });
      end({ route });
    });
    next();
  });

  app.get('/healthz', (_req, res) => {
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

  api.post('/convert', limits.convert, receiveUpload(), async (req, res) => {
    const workspace = workspaceOf(req);
    const request = validateConvertRequest(workspace.plan, req.file, (req.body ?? {}) as Record<string, unknown>);
    const answer = await acceptConversion(deps, workspace, request);
    res.status(answer.status).json(answer.body);
  });

  api.get('/conversions', limits.other, async (req, res) => {
    const workspace = workspaceOf(req);
    const query = validateListRequest(req.query as Record<string, unknown>);
    const { rows, total } = await listConversions(deps.db, workspace.id, query);
    const echoed: Record<string, string> = {};
    if (query.status) echoed.status = query.status;
    if (req.query.per_page !== undefined) echoed.per_page = String(query.perPage);
    res.json(
      renderPaginator({
        items: rows.map(renderConversionListItem),
        total,
        page: query.page,
        perPage: query.perPage,
        path: `${req.protocol}://${req.get('host')}${req.baseUrl}/conversions`,
        query: echoed,
      }),
    );
  });

  api.get('/conversions/:id', limits.other, async (req, res) => {
    const workspace = workspaceOf(req);
    const id = String(req.params.id);
    if (!UUID.test(id)) throw AppError.notFound();
    const row = await findConversionForWorkspace(deps.db, workspace.id, id.toLowerCase());
    if (!row) throw AppError.notFound();
    res.json(renderConversionDetail(row));
  });

  api.use(limits.other, () => {
    throw AppError.routeNotFound();
  });

  app.use('/api/v1', api);
  app.use(() => {
    throw AppError.routeNotFound();
  });
  app.use(errorHandler(deps.logger));
  return app;
}

function routeLabel(req: Request): string {
  const route = (req.route as { path?: string } | undefined)?.path;
  return route ? `${req.baseUrl}${route}` : 'unmatched';
}

/** The one error handler: AppError → the contract's body; anything else → 500 without internals. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof AppError) {
      res.status(err.status).json(err.body);
      return;
    }
    const status = (err as { status?: number; type?: string }).status;
    if (status === 400 || (err as { type?: string }).type === 'entity.parse.failed') {
      res.status(400).json({ error: 'bad_request', message: 'The request could not be read.' });
      return;
    }
    logger.error({ err, path: req.path }, 'unhandled error');
    res.status(500).json({ error: 'internal_error', message: 'Something went wrong on our side.' });
  };
}
