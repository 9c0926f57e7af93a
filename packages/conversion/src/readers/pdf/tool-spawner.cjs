'use strict';
// A conversion worker's tool spawner (tool-runner.ts): a small node process that starts poppler's
// tools for the worker and hands their output back. Forking the converter, whose worker threads'
// heaps are all in its page tables, cost more of a 2-page range's CPU than the pages' work; this
// process is a few tens of MB. It runs only what its worker asks, with the worker's environment;
// when the worker ends (its deadline or a cancel terminates it) its pipe closes, and every tool
// still running is killed.
//
// Requests on stdin: kind (u8: 1 run, 2 kill), id (u32), command-and-arguments length (u32), input
// length (u32), then the JSON [command, ...args, timeoutMs, maxBytes] and the input for the tool's
// stdin. Replies on stdout: id (u32), status length (u32), output length (u32), then the JSON
// {code, signal, error} and the tool's stdout.
const { spawn } = require('node:child_process');
const { setTimeout, clearTimeout } = require('node:timers');

/** The tools' environment: the worker's, with the allocator tool-runner.ts chose preloaded (not into this process). */
const TOOL_ENV = toolEnv();
const RUN = 1;
const KILL = 2;
const HEADER = 13;

/** Tools running, by request id. */
const running = new Map();
/** Bytes received and not yet read as a request. */
let chunks = [];
let held = 0;

process.stdin.on('data', (chunk) => {
  chunks.push(chunk);
  held += chunk.length;
  for (;;) {
    const head = peek(HEADER);
    if (!head) return;
    const argsEnd = HEADER + head.readUInt32LE(5);
    const frame = take(argsEnd + head.readUInt32LE(9));
    if (!frame) return;
    const kind = frame.readUInt8(0);
    const id = frame.readUInt32LE(1);
    if (kind === KILL) stop(id, 'SIGTERM');
    else if (kind === RUN) start(id, JSON.parse(frame.toString('utf8', HEADER, argsEnd)), frame.subarray(argsEnd));
  }
});
// The worker is gone: nothing it started may outlive it.
process.stdin.on('end', () => {
  for (const id of running.keys()) stop(id, 'SIGKILL');
  process.exit(0);
});
process.stdout.on('error', () => process.exit(0));

function toolEnv() {
  const { MARKWRIGHT_TOOL_PRELOAD: preload, ...env } = process.env;
  return preload ? { ...env, LD_PRELOAD: preload } : env;
}

/** The first `size` bytes held, left held; undefined until that many arrived. */
function peek(size) {
  if (held < size) return undefined;
  if (chunks[0].length < size) chunks = [Buffer.concat(chunks, held)];
  return chunks[0].subarray(0, size);
}

/** The first `size` bytes held, taken; undefined until that many arrived (joined once, however many pieces they came in). */
function take(size) {
  if (held < size) return undefined;
  const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, held);
  chunks = all.length > size ? [all.subarray(size)] : [];
  held -= size;
  return all.subarray(0, size);
}

function start(id, request, input) {
  const [command, ...rest] = request;
  const maxBytes = rest.pop();
  const timeoutMs = rest.pop();
  const out = [];
  let bytes = 0;
  let error;
  let child;
  try {
    child = spawn(command, rest, { stdio: ['pipe', 'pipe', 'ignore'], env: TOOL_ENV });
  } catch (err) {
    reply(id, { code: null, signal: null, error: String(err && err.message) }, []);
    return;
  }
  const timer = setTimeout(() => {
    error = 'timed out';
    child.kill('SIGTERM');
  }, timeoutMs);
  running.set(id, { child, timer });
  child.stdout.on('data', (data) => {
    bytes += data.length;
    if (bytes > maxBytes) {
      error = 'stdout maxBuffer length exceeded';
      child.kill('SIGTERM');
      return;
    }
    out.push(data);
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  let done = false;
  const finish = (code, signal, failure) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    running.delete(id);
    reply(id, { code, signal, error: failure ?? error ?? null }, error ? [] : out);
  };
  child.on('error', (err) => finish(null, null, String(err.message)));
  child.on('close', (code, signal) => finish(code, signal));
}

function stop(id, signal) {
  const tool = running.get(id);
  if (tool) tool.child.kill(signal);
}

function reply(id, status, out) {
  const meta = Buffer.from(JSON.stringify(status), 'utf8');
  const head = Buffer.alloc(12);
  head.writeUInt32LE(id, 0);
  head.writeUInt32LE(meta.length, 4);
  head.writeUInt32LE(
    out.reduce((n, b) => n + b.length, 0),
    8,
  );
  // Piece by piece: the output of a long PDF is hundreds of MB, and one joined copy of it is enough (the worker's).
  process.stdout.write(Buffer.concat([head, meta]));
  for (const piece of out) process.stdout.write(piece);
}
