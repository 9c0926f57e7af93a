// HEALTHCHECK of the image, with node itself (no curl in the image): GET /healthz on the port the
// running service listens on: HEALTH_PORT for the converter and dispatcher, PORT for the gateway.
'use strict';
const DEFAULT_PORT = 8080;
const TIMEOUT_MS = 4000;
const port = process.env.HEALTH_PORT || process.env.PORT || DEFAULT_PORT;

fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
