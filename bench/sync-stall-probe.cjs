// Preloaded into a service by `bench/sync-profile.ts` (PROFILE_STALLS=1) with --require: writes one
// line per GC pause (PerformanceObserver) and per event-loop block (a 2 ms timer firing over 5 ms
// late), with wall-clock times, to PROBE_DIR/<service>-<pid>.probe. Plain CommonJS so the built
// services load it without tsx.
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');
const { setTimeout } = require('node:timers');
const fs = require('node:fs');
const path = require('node:path');
const name = path.basename(path.dirname(path.dirname(process.argv[1] || 'x')));
const out = fs.openSync(
  path.join(process.env.PROBE_DIR || require('node:os').tmpdir(), `${name}-${process.pid}.probe`),
  'w',
);
const kinds = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markcompact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const origin = performance.timeOrigin;
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    fs.writeSync(
      out,
      `gc ${kinds[e.detail?.kind ?? e.kind] ?? e.detail?.kind} ${(origin + e.startTime).toFixed(1)} ${e.duration.toFixed(2)}\n`,
    );
}).observe({ entryTypes: ['gc'] });
let expected = performance.now() + 2;
const tick = () => {
  const now = performance.now();
  const lag = now - expected;
  if (lag > 5) fs.writeSync(out, `lag ${(origin + expected).toFixed(1)} ${lag.toFixed(2)}\n`);
  expected = performance.now() + 2;
  setTimeout(tick, 2).unref();
};
setTimeout(tick, 2).unref();
