import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** The gateway's server-level upload cap; a bigger file is refused before it is read. */
export const MAX_FILE_BYTES = 60 * 1024 * 1024;
/** Opening a FIFO for reading would block until a writer comes; O_NONBLOCK makes it return, then fstat refuses it. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A refusal the tool reports to the model as is: it names the path as given, never other files. */
export class FileAccessError extends Error {
  override name = 'FileAccessError';
}

export interface AllowedFile {
  data: Buffer;
  filename: string;
}

/**
 * Reads `requested` (absolute, or relative to the first root) when it is a regular file inside one
 * of `roots`, links resolved: a symbolic link, or a `..`, that leads out of every root is refused,
 * and so are directories, devices, FIFOs and sockets. The check is made on the opened file itself
 * (its /proc/self/fd path on Linux, else its device and inode against the checked path), so a link
 * swapped in between the check and the open cannot redirect the read.
 */
export async function readAllowedFile(requested: string, roots: string[]): Promise<AllowedFile> {
  if (requested.trim() === '' || requested.includes('\0')) throw new FileAccessError('The path is empty or invalid.');
  const realRoots = await realRootsOf(roots);
  const wanted = path.resolve(roots[0]!, requested);
  const real = await fs.realpath(wanted).catch((err: NodeJS.ErrnoException) => {
    throw new FileAccessError(err.code === 'ENOENT' ? `No such file: ${requested}` : `Cannot read ${requested}.`);
  });
  if (!isInside(real, realRoots)) throw outside(requested);
  const handle = await fs.open(real, OPEN_FLAGS).catch(() => {
    throw new FileAccessError(`Cannot read ${requested}.`);
  });
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new FileAccessError(`Not a regular file: ${requested}`);
    if (!isInside(await openedPath(handle.fd, real, stat), realRoots)) throw outside(requested);
    if (stat.size > MAX_FILE_BYTES) {
      throw new FileAccessError(
        `${requested} is larger than the service accepts (${MAX_FILE_BYTES / 1024 / 1024} MB).`,
      );
    }
    return { data: await handle.readFile(), filename: path.basename(real) };
  } finally {
    await handle.close();
  }
}

/** Where the open file really is: Linux says it; elsewhere the checked path, if it is still the same file. */
async function openedPath(fd: number, checked: string, opened: { dev: number; ino: number }): Promise<string> {
  const viaProc = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  if (viaProc !== undefined) return viaProc;
  const now = await fs.stat(checked).catch(() => undefined);
  const sameFile = now !== undefined && now.dev === opened.dev && now.ino === opened.ino;
  return sameFile && (await fs.realpath(checked)) === checked ? checked : '';
}

async function realRootsOf(roots: string[]): Promise<string[]> {
  const resolved = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => undefined)));
  return resolved.filter((root): root is string => root !== undefined);
}

function isInside(candidate: string, roots: string[]): boolean {
  if (!path.isAbsolute(candidate)) return false;
  return roots.some((root) => {
    const relative = path.relative(root, candidate);
    return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  });
}

function outside(requested: string): FileAccessError {
  return new FileAccessError(`${requested} is outside the folders this server may read (MARKWRIGHT_MCP_ROOTS).`);
}
