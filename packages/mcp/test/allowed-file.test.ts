import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileAccessError, MAX_FILE_BYTES, readAllowedFile } from '../src/domain/allowed-file';
import { ConfigError, readConfig } from '../src/config';

let base: string;
let root: string;
let second: string;
let outside: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mw-mcp-files-')));
  root = path.join(base, 'root');
  second = path.join(base, 'second');
  outside = path.join(base, 'outside');
  for (const dir of [root, path.join(root, 'docs', 'deep'), second, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, 'hello.md'), '# Hello\n');
  fs.writeFileSync(path.join(root, 'docs', 'deep', 'nested.md'), '# Nested\n');
  fs.writeFileSync(path.join(second, 'other.md'), '# Other root\n');
  fs.writeFileSync(path.join(outside, 'secret.md'), '# Secret\n');
  fs.writeFileSync(path.join(root, '..dots.md'), '# Dots\n');
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'escape.md'));
  fs.symlinkSync(outside, path.join(root, 'escape-dir'));
  fs.symlinkSync(path.join(root, 'hello.md'), path.join(root, 'alias.md'));
  fs.symlinkSync('../root/docs', path.join(second, 'docs-link'));
  execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

async function refusal(requested: string, roots = [root]): Promise<string> {
  const err = await readAllowedFile(requested, roots).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FileAccessError);
  return (err as FileAccessError).message;
}

const RACE_READS = 2000;
const OUTSIDE = /is outside the folders this server may read \(MARKWRIGHT_MCP_ROOTS\)\.$/;

describe('readAllowedFile', () => {
  it('When the path is relative to the first root, then the file is read with its own name', async () => {
    expect(await readAllowedFile('hello.md', [root])).toEqual({ data: Buffer.from('# Hello\n'), filename: 'hello.md' });
  });

  it('When the path is absolute inside a root, in a subfolder, then it is read', async () => {
    const file = await readAllowedFile(path.join(root, 'docs', 'deep', 'nested.md'), [root]);
    expect(file.data.toString()).toBe('# Nested\n');
  });

  it('When a file name starts with two dots but stays inside, then it is read', async () => {
    expect((await readAllowedFile('..dots.md', [root])).data.toString()).toBe('# Dots\n');
  });

  it('When a link inside the root points inside it, then the target is read under the target’s name', async () => {
    expect(await readAllowedFile('alias.md', [root])).toEqual({ data: Buffer.from('# Hello\n'), filename: 'hello.md' });
  });

  it('When a symbolic link points to a file outside every root, then it is refused', async () => {
    expect(await refusal('escape.md')).toMatch(OUTSIDE);
  });

  it('When a linked folder leads outside, then a file through it is refused', async () => {
    expect(await refusal('escape-dir/secret.md')).toMatch(OUTSIDE);
  });

  it('When .. climbs out of the root, then it is refused', async () => {
    expect(await refusal('../outside/secret.md')).toMatch(OUTSIDE);
    expect(await refusal('docs/../../outside/secret.md')).toMatch(OUTSIDE);
  });

  it('When the path is absolute outside every root, then it is refused and the message names only that path', async () => {
    expect(await refusal('/etc/passwd')).toBe(
      '/etc/passwd is outside the folders this server may read (MARKWRIGHT_MCP_ROOTS).',
    );
  });

  it('When the path is the root itself or a folder, then it is refused as not a regular file', async () => {
    expect(await refusal('docs')).toBe('Not a regular file: docs');
    expect(await refusal('.')).toMatch(OUTSIDE);
  });

  it('When the path is a FIFO, then it is refused at once instead of waiting for a writer', async () => {
    expect(await refusal('pipe.md')).toBe('Not a regular file: pipe.md');
  });

  it('When the file does not exist, then the message says so', async () => {
    expect(await refusal('missing.md')).toBe('No such file: missing.md');
  });

  it('When several roots are allowed, then a file in any of them is read, and a link from one into another is followed', async () => {
    const roots = [root, second];
    expect((await readAllowedFile(path.join(second, 'other.md'), roots)).data.toString()).toBe('# Other root\n');
    expect((await readAllowedFile(path.join(second, 'docs-link', 'deep', 'nested.md'), roots)).filename).toBe(
      'nested.md',
    );
    expect(await refusal(path.join(second, 'other.md'), [root])).toMatch(OUTSIDE);
  });

  it('When the path has a NUL byte or is blank, then it is refused as invalid', async () => {
    expect(await refusal('hello.md\0.txt')).toBe('The path is empty or invalid.');
    expect(await refusal('  ')).toBe('The path is empty or invalid.');
  });

  it('When a folder on the path is swapped for a link to outside during reads, then no read returns what is outside', async () => {
    const inside = path.join(root, 'race');
    const parked = path.join(root, 'race-parked');
    const link = path.join(root, 'race-link');
    fs.mkdirSync(inside);
    fs.writeFileSync(path.join(inside, 'file.md'), '# Inside\n');
    fs.writeFileSync(path.join(outside, 'file.md'), '# Secret\n');
    fs.symlinkSync(outside, link);
    let swapping = true;
    // Between the check and the open, race/ is a real folder one moment and a link to outside the next.
    const swapper = (async () => {
      for (let linked = false; swapping; linked = !linked) {
        if (linked) {
          fs.renameSync(inside, link);
          fs.renameSync(parked, inside);
        } else {
          fs.renameSync(inside, parked);
          fs.renameSync(link, inside);
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    const read = new Set<string>();
    try {
      for (let i = 0; i < RACE_READS; i++) {
        const file = await readAllowedFile('race/file.md', [root]).catch((err: unknown) => {
          if (!(err instanceof FileAccessError)) throw err;
        });
        if (file) read.add(file.data.toString());
      }
    } finally {
      swapping = false;
      await swapper;
    }
    expect(read.has('# Secret\n')).toBe(false);
  });

  it('When the file is over the service’s upload cap, then it is refused before it is read', async () => {
    const big = path.join(root, 'big.txt');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, MAX_FILE_BYTES + 1);
    try {
      expect(await refusal('big.txt')).toBe('big.txt is larger than the service accepts (60 MB).');
    } finally {
      fs.rmSync(big);
    }
  });
});

describe('readConfig', () => {
  const env = { MARKWRIGHT_BASE_URL: 'http://127.0.0.1:8080/api/v1', MARKWRIGHT_TOKEN: 'mwk_x' };

  it('When no roots are set, then the working folder is the only root', () => {
    expect(readConfig(env, '/srv/docs')).toEqual({
      baseUrl: env.MARKWRIGHT_BASE_URL,
      token: 'mwk_x',
      roots: ['/srv/docs'],
    });
  });

  it('When roots are a path list, then each is resolved against the working folder', () => {
    const roots = ['/data', 'relative', ''].join(path.delimiter);
    expect(readConfig({ ...env, MARKWRIGHT_MCP_ROOTS: roots }, '/home/me').roots).toEqual([
      '/data',
      '/home/me/relative',
    ]);
  });

  it('When the token is missing, then the error names MARKWRIGHT_TOKEN', () => {
    expect(() => readConfig({ MARKWRIGHT_BASE_URL: env.MARKWRIGHT_BASE_URL })).toThrow(
      new ConfigError('markwright mcp: MARKWRIGHT_TOKEN is required: a workspace token (mwk_…)'),
    );
  });

  it('When the base URL is not an http(s) URL, then the error names MARKWRIGHT_BASE_URL', () => {
    expect(() => readConfig({ ...env, MARKWRIGHT_BASE_URL: 'ftp://x/api/v1' })).toThrow(
      /^markwright mcp: MARKWRIGHT_BASE_URL /,
    );
  });
});
