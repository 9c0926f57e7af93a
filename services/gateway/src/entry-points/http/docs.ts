import path from 'node:path';
import express, { type Router } from 'express';
import { OPENAPI_PATH } from './openapi';

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = `${DOCS_PATH}/scalar.js`;
const INIT_PATH = `${DOCS_PATH}/init.js`;
/** The paths docsRoutes serves (GET). */
export const DOCS_ENDPOINTS = [DOCS_PATH, INIT_PATH, BUNDLE_PATH] as const;

/** Scalar's standalone browser bundle, served from node_modules: the page loads nothing from another host. */
const SCALAR_BUNDLE = path.join(
  path.dirname(require.resolve('@scalar/api-reference/style.css')),
  'browser',
  'standalone.js',
);

/** Only this origin; inline styles because the bundle injects its own, data: for its icons and fonts. */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Markwright API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${BUNDLE_PATH}"></script>
    <script src="${INIT_PATH}"></script>
  </body>
</html>
`;

/** Config as a script file rather than inline, so the CSP needs no 'unsafe-inline' for scripts. */
const INIT = `Scalar.createApiReference('#app', ${JSON.stringify({
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
})});\n`;

/** GET /docs: an interactive reference of the OpenAPI document, no authentication, no CDN. */
export function docsRoutes(): Router {
  const router = express.Router();
  router.use(DOCS_PATH, (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  router.get(DOCS_PATH, (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get(INIT_PATH, (_req, res) => {
    res.type('js').send(INIT);
  });
  router.get(BUNDLE_PATH, (_req, res, next) => {
    // dotfiles: the pnpm store path has a .pnpm segment, which send() refuses by default.
    res.sendFile(SCALAR_BUNDLE, { maxAge: '1h', dotfiles: 'allow' }, (err) => {
      if (err) next(err);
    });
  });
  return router;
}
