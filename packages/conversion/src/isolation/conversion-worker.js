// Worker-thread entry when running from sources (tsx, jest): worker threads do not inherit a
// TypeScript loader, so this plain-JS file registers tsx, then loads the task. A build bundles
// conversion-task.ts to dist/conversion-worker.js instead and never loads this file.
require('tsx/cjs/api').register();
const task = require('./conversion-task');
module.exports = task.default;
module.exports.workerProtection = task.workerProtection;
