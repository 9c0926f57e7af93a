import { DOCS_ENDPOINTS } from './docs';
import { OPENAPI_PATH } from './openapi';

/**
 * The endpoints the gateway serves, as `METHOD path` with Express-style `:params`. The metric label
 * of a request is its endpoint's path whatever the outcome: Express's own `req.route` is unset when
 * authentication or a rate limit refuses the request before routing, and the router's base path is
 * gone by the time an error reaches the handler.
 */
export const ENDPOINTS = [
  'GET /livez',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  `GET ${OPENAPI_PATH}`,
  ...DOCS_ENDPOINTS.map((p) => `GET ${p}`),
  'POST /api/v1/convert',
  'GET /api/v1/conversions',
  'GET /api/v1/conversions/:id',
] as const;

export const UNMATCHED_ROUTE = 'unmatched';

const matchers = ENDPOINTS.map((endpoint) => {
  const [method, template] = endpoint.split(' ') as [string, string];
  return { method, template, segments: template.split('/').slice(1) };
});

/** The endpoint path a request is for (Express matching: case-insensitive, an optional trailing slash), else 'unmatched'. */
export function routeLabel(method: string, path: string): string {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const segments = path
    .replace(/(.)\/$/, '$1')
    .split('/')
    .slice(1);
  const found = matchers.find(
    (m) =>
      m.method === wanted &&
      m.segments.length === segments.length &&
      m.segments.every((s, i) =>
        s.startsWith(':') ? segments[i] !== '' : s.toLowerCase() === segments[i]!.toLowerCase(),
      ),
  );
  return found ? found.template : UNMATCHED_ROUTE;
}
