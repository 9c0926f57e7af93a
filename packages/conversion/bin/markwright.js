#!/usr/bin/env node
// `markwright convert FILE… [options]`: the conversion library's CLI, compiled, run by plain node.
// In a checkout it first builds when the build is missing or older than the sources.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_DIR = path.join(__dirname, '..');
const CLI = path.join(PACKAGE_DIR, 'dist', 'cli.js');
const BUILDER = path.join(PACKAGE_DIR, '..', '..', 'scripts', 'build.js');
const USAGE = 'usage: markwright convert <files...> [--out DIR] [--metadata] [--optimize-tokens] [--enhanced]\n';

async function main() {
  const command = process.argv[2];
  if (command !== 'convert') {
    process.stderr.write(USAGE);
    process.exit(command === '--help' || command === '-h' ? 0 : 2);
  }
  process.argv.splice(2, 1);
  if (fs.existsSync(BUILDER)) await require(BUILDER).ensureBuilt();
  require(CLI);
}

main().catch((err) => {
  process.stderr.write(`${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
