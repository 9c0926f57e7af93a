'use strict';
// Piscina's task file in a build (isolated-convert.ts): the compiled conversion worker, loaded with
// the code cache the build made for it (worker-bundle.cjs). Its exports are the bundle's: the
// default task and workerProtection.
const { loadBundle, WORKER_BUNDLE } = require('./worker-bundle.cjs');

module.exports = loadBundle(WORKER_BUNDLE).exports;
