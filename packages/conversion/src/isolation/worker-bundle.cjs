'use strict';
// The compiled conversion worker (dist/conversion-worker.js), loaded as node's require would load
// it, but compiled with the V8 code cache the build made for it (scripts/code-cache.ts): a worker
// thread then skips compiling the bundle and the readers' functions the build's warm-up ran, about
// 50 ms of CPU per worker started (docs/performance.md). The cache is used only for the bundle it
// was made from (its length and CRC-32, and this Node.js version, checked here: V8 itself checks only the
// source's length) and V8 refuses it when its own version or flags differ; without it, the bundle
// compiles as before. Piscina's task file in a build (isolated-convert.ts).
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const zlib = require('node:zlib');

const DIST = path.join(__dirname, '..', '..', 'dist');

/** Where a bundle's cache and the record of what it was made from are kept: beside the bundle. */
function cacheFiles(bundle) {
  return { data: `${bundle}.cache`, made: `${bundle}.cache.json` };
}

/**
 * What tells this bundle from any other build of it: its length and CRC-32, which changes with any edit of up
 * to 32 bits and almost surely with any other (the risk is a stale cache, not a forged one: whoever can write
 * the bundle can write its cache). zlib, which a worker loads anyway, rather than crypto's SHA-256, which only
 * this check needed (17 of Node's modules and ~2-3 ms of every worker's start).
 */
function checksum(bytes) {
  return `${bytes.length}:${zlib.crc32(bytes)}`;
}

/** The cache made from exactly these bytes by this Node.js, or undefined. */
function cacheFor(bundle, bytes) {
  const files = cacheFiles(bundle);
  try {
    const made = JSON.parse(fs.readFileSync(files.made, 'utf8'));
    if (made.checksum !== checksum(bytes) || made.node !== process.version) return undefined;
    return fs.readFileSync(files.data);
  } catch {
    return undefined;
  }
}

/**
 * Compiles and runs a CommonJS bundle as `require` would (same wrapper, file name, `require`,
 * `module`, `__dirname`), with its code cache when there is a valid one. Returns its exports, the
 * compiled script (for `createCachedData`) and whether V8 took the cache.
 */
function loadBundle(bundle, { useCache = true } = {}) {
  const bytes = fs.readFileSync(bundle);
  const cachedData = useCache ? cacheFor(bundle, bytes) : undefined;
  const script = new vm.Script(Module.wrap(bytes.toString('utf8')), {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const loaded = new Module(bundle, module);
  loaded.filename = bundle;
  loaded.paths = Module._nodeModulePaths(path.dirname(bundle));
  const requireFromBundle = Module.createRequire(bundle);
  script
    .runInThisContext()
    .call(loaded.exports, loaded.exports, requireFromBundle, loaded, bundle, path.dirname(bundle));
  loaded.loaded = true;
  return {
    exports: loaded.exports,
    script,
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
  };
}

/** Writes the cache of everything `script` has compiled so far, with the record of its source. */
function writeCache(bundle, script) {
  const files = cacheFiles(bundle);
  fs.writeFileSync(files.data, script.createCachedData());
  fs.writeFileSync(
    files.made,
    `${JSON.stringify({ checksum: checksum(fs.readFileSync(bundle)), node: process.version })}\n`,
  );
}

module.exports = { loadBundle, writeCache, cacheFiles, WORKER_BUNDLE: path.join(DIST, 'conversion-worker.js') };
