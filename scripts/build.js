#!/usr/bin/env node
// `pnpm build`: one esbuild bundle per entry point a workspace package names in its package.json
// ("buildEntries": {"main": "src/entry-points/main.ts"} -> <package>/dist/main.js), so services and
// CLIs run with plain node. Workspace packages (TypeScript sources) are bundled in; npm packages stay
// external and are required at run time from the package that depends on them, so pnpm's strict
// node_modules, native addons (sharp) and the worker files of pdf.js, tesseract.js and piscina work
// unchanged. A package with its own "build" script (a publishable library) is built by that script.
// Plain JavaScript so that building needs no TypeScript loader; esbuild is loaded only to build.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
/** Folders of workspace packages, as pnpm-workspace.yaml lists them. */
const WORKSPACE_GLOBS = ['packages', 'services'];
/** Besides every package's src/, these decide whether a build is stale. */
const EXTRA_INPUTS = ['scripts/start.ts', 'scripts/build.js', 'pnpm-lock.yaml', 'package.json'];
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every workspace package directory (the root included, for scripts/start.ts). */
function workspacePackages() {
  const dirs = [ROOT];
  for (const group of WORKSPACE_GLOBS) {
    const base = path.join(ROOT, group);
    if (!fs.existsSync(base)) continue;
    for (const name of fs.readdirSync(base).sort()) {
      if (fs.existsSync(path.join(base, name, 'package.json'))) dirs.push(path.join(base, name));
    }
  }
  return dirs.map((dir) => ({ dir, manifest: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) }));
}

function newestMtime(target) {
  let newest = 0;
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** True when no build exists or a source, manifest or the lockfile changed since the last one. */
function isStale() {
  let built;
  try {
    built = fs.statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
  const inputs = EXTRA_INPUTS.map((p) => path.join(ROOT, p));
  for (const { dir } of workspacePackages().slice(1)) {
    inputs.push(path.join(dir, 'src'), path.join(dir, 'package.json'));
  }
  return inputs.some((input) => newestMtime(input) > built);
}

/** The directory of the nearest package.json above `dir` (the package that owns an import). */
const ownerCache = new Map();
function owningPackage(dir) {
  if (ownerCache.has(dir)) return ownerCache.get(dir);
  const parent = path.dirname(dir);
  const owner = fs.existsSync(path.join(dir, 'package.json')) || parent === dir ? dir : owningPackage(parent);
  ownerCache.set(dir, owner);
  return owner;
}

/** npm packages a workspace package lists in "buildInline": bundled, so they need not be installed to run. */
function inlinedBy(owner) {
  const manifest = path.join(owner, 'package.json');
  return fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')).buildInline ?? []) : [];
}

const relativeFrom = (outdir, target) => path.relative(outdir, target).split(path.sep).join('/');

/**
 * npm imports become `createRequire(<owning package>)(name)` relative to the bundle, so they
 * resolve from the package that declares them, as they do when running sources.
 */
function externalsFromOwner(outdir) {
  return {
    name: 'externals-from-owner',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (BUILTINS.has(args.path) || args.path.startsWith('@markwright/')) return undefined;
        // Inside an inlined npm package: its own imports are bundled with it.
        if (args.resolveDir.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const owner = owningPackage(args.resolveDir);
        if (inlinedBy(owner).some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
        // A JSON path, so no specifier's file extension (.mjs) makes esbuild treat the shim as ESM.
        return { path: JSON.stringify([relativeFrom(outdir, owner), args.path]), namespace: 'external-from-owner' };
      });
      build.onLoad({ filter: /.*/, namespace: 'external-from-owner' }, (args) => {
        const [ownerRel, specifier] = JSON.parse(args.path);
        const manifest = JSON.stringify(`${ownerRel}/package.json`);
        return {
          contents: `module.exports = require('node:module').createRequire(require('node:path').join(__dirname, ${manifest}))(${JSON.stringify(specifier)});`,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Workspace code that finds files beside its source (`__dirname`, `require.resolve`: SQL
 * migrations, OCR data) sees its source folder in the bundle too, not the bundle's folder.
 */
function sourceRelativePaths(outdir) {
  return {
    name: 'source-relative-paths',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = fs.readFileSync(args.path, 'utf8');
        if (!/\b__dirname\b|\brequire\.resolve\(/.test(contents)) return undefined;
        const sourceDir = JSON.stringify(relativeFrom(outdir, path.dirname(args.path)));
        contents = contents
          .replace(/\b__dirname\b/g, '__mwSourceDir')
          .replace(/\brequire\.resolve\(/g, '__mwRequire.resolve(');
        const prologue =
          `const __mwSourceDir = require('node:path').join(__dirname, ${sourceDir});\n` +
          `const __mwRequire = require('node:module').createRequire(require('node:path').join(__mwSourceDir, 'index.js'));\n`;
        return { contents: prologue + contents, loader: 'ts' };
      });
    },
  };
}

async function bundlePackage(esbuild, { dir, manifest }) {
  const entries = manifest.buildEntries;
  if (!entries) return [];
  const outdir = path.join(dir, 'dist');
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: Object.entries(entries).map(([out, src]) => ({ in: path.join(dir, src), out })),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Node has had Unicode property escapes (/\p{L}/u) since 10, but esbuild (since 0.19.4, its
    // issue 3471) lowers such literals to `new RegExp(...)` for node targets: a constructor call
    // with a compilation-cache lookup every time the expression runs, on hot paths of the readers.
    supported: { 'regexp-unicode-property-escapes': true },
    sourcemap: true,
    logLevel: 'warning',
    // Lets the conversion library pick its compiled worker instead of the tsx shim.
    define: { 'process.env.MARKWRIGHT_BUNDLE': '"true"' },
    plugins: [externalsFromOwner(outdir), sourceRelativePaths(outdir)],
  });
  return Object.keys(entries).map((out) => relativeFrom(ROOT, path.join(outdir, `${out}.js`)));
}

/**
 * A package's V8 code cache for its worker bundle: its "codeCache" script (run with tsx after the
 * bundle is written) converts generated documents with the bundle and writes the cache beside it.
 * Without one (the script failed), workers compile the bundle as before.
 */
function makeCodeCache({ dir, manifest }, quiet) {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(dir, manifest.codeCache)], {
      cwd: dir,
      stdio: ['ignore', 'ignore', quiet ? 'ignore' : 2],
      timeout: 180_000,
    });
    return [`${relativeFrom(ROOT, dir)} (code cache)`];
  } catch (err) {
    if (!quiet) process.stderr.write(`No code cache for ${relativeFrom(ROOT, dir)}: ${err.message}\n`);
    return [];
  }
}

async function build({ quiet = false } = {}) {
  const esbuild = require('esbuild');
  const started = Date.now();
  const outputs = [];
  for (const pkg of workspacePackages()) {
    outputs.push(...(await bundlePackage(esbuild, pkg)));
    if (pkg.manifest.codeCache) outputs.push(...makeCodeCache(pkg, quiet));
    if (pkg.dir !== ROOT && pkg.manifest.scripts && pkg.manifest.scripts.build) {
      // Its output goes to stderr: `pnpm --silent admin` must print exactly one JSON object on stdout.
      execFileSync('pnpm', ['--silent', 'run', 'build'], { cwd: pkg.dir, stdio: ['ignore', quiet ? 'ignore' : 2, 2] });
      outputs.push(`${relativeFrom(ROOT, pkg.dir)} (its own build script)`);
    }
  }
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, `${new Date().toISOString()}\n${outputs.join('\n')}\n`);
  if (!quiet)
    process.stderr.write(`Built ${outputs.length} outputs in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

/** Builds only when the build is missing or older than a source. */
async function ensureBuilt(options = {}) {
  if (isStale()) await build(options);
}

module.exports = { build, ensureBuilt, isStale };

if (require.main === module) {
  const ifStale = process.argv.includes('--if-stale');
  (ifStale ? ensureBuilt() : build()).catch((err) => {
    process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
