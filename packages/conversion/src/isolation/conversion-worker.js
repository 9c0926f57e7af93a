// Worker-thread entry for the conversion pool (plain JS so it loads the same way under tsx, jest
// and node): registers the TypeScript loader once, then converts each document it is given.
require('tsx/cjs/api').register();
const { convertDocument } = require('../convert');
const { ConversionError } = require('../types');

module.exports = async function convertInWorker({ input, extension, options }) {
  try {
    const result = await convertDocument(Buffer.from(input), extension, options);
    return { ok: true, result };
  } catch (err) {
    const known = err instanceof ConversionError;
    return {
      ok: false,
      code: known ? err.code : 'corrupt_file',
      message: known ? err.message : `The file could not be converted: ${String(err && err.message).split('\n')[0]}`,
    };
  }
};
