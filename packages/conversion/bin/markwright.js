#!/usr/bin/env node
// `markwright convert FILE… [options]`: the conversion library's CLI, compiled, run by plain node.
// `markwright mcp`: the MCP server (packages/mcp), loaded only for that command.
// In a checkout it first builds when the build is missing or older than the sources (on stderr).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_DIR = path.join(__dirname, '..');
const CLI = path.join(PACKAGE_DIR, 'dist', 'cli.js');
const MCP_SERVER = path.join(PACKAGE_DIR, '..', 'mcp', 'dist', 'mcp.js');
const BUILDER = path.join(PACKAGE_DIR, '..', '..', 'scripts', 'build.js');
const USAGE =
  'usage: markwright convert <files...> [--out DIR] [--metadata] [--optimize-tokens] [--enhanced]\n' +
  '                          [--page-range R] [--pages] [--chunk-max-tokens N] [--json]\n' +
  '       markwright mcp   (MCP server on stdio; MARKWRIGHT_BASE_URL, MARKWRIGHT_TOKEN, MARKWRIGHT_MCP_ROOTS)\n';
const ENTRY_POINTS = { convert: CLI, mcp: MCP_SERVER };

async function main() {
  const command = process.argv[2];
  const entryPoint = Object.hasOwn(ENTRY_POINTS, command) ? ENTRY_POINTS[command] : undefined;
  if (entryPoint === undefined) {
    process.stderr.write(USAGE);
    process.exit(command === '--help' || command === '-h' ? 0 : 2);
  }
  process.argv.splice(2, 1);
  if (fs.existsSync(BUILDER)) await require(BUILDER).ensureBuilt();
  require(entryPoint);
}

main().catch((err) => {
  process.stderr.write(`${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
