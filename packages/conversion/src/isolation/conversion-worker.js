// Worker-thread entry for the conversion pool (plain JS so it loads the same way under tsx, jest
// and node): registers the TypeScript loader once, then converts each document it is given.
require('tsx/cjs/api').register();
const v8 = require('node:v8');
const { convertDocument } = require('../convert');
const { userFacingError } = require('../user-facing-errors');

let conversions = 0;

/** What the pool needs to decide whether this worker should be replaced. */
function health() {
  const heap = v8.getHeapStatistics();
  return { heapMb: (heap.total_heap_size + heap.external_memory) / (1024 * 1024), conversions };
}

module.exports = async function convertInWorker({ input, extension, options }) {
  conversions++;
  try {
    const result = await convertDocument(Buffer.from(input), extension, options);
    return { ok: true, result, health: health() };
  } catch (err) {
    const shown = userFacingError(err, extension);
    return { ok: false, code: shown.code, message: shown.message, health: health() };
  }
};

/** True when the built-ins every parser shares cannot be changed (--frozen-intrinsics). */
module.exports.intrinsicsFrozen = function intrinsicsFrozen() {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].every((p) => Object.isFrozen(p));
};
