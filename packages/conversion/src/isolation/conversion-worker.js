// Worker-thread entry (plain JS so it loads the same way under tsx, jest and node): registers the
// TypeScript loader, converts the one document it was given, and posts the result or the error.
const { parentPort, workerData } = require('node:worker_threads');

require('tsx/cjs/api').register();
const { convertDocument } = require('../convert');
const { ConversionError } = require('../types');

convertDocument(Buffer.from(workerData.input), workerData.extension, workerData.options).then(
  (result) => parentPort.postMessage({ ok: true, result }),
  (err) => {
    const known = err instanceof ConversionError;
    parentPort.postMessage({
      ok: false,
      code: known ? err.code : 'corrupt_file',
      message: known ? err.message : `The file could not be converted: ${String(err && err.message).split('\n')[0]}`,
    });
  },
);
