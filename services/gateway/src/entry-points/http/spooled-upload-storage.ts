import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import type multer from 'multer';

/** What the storage engine reports for the file: `path` only when the whole file was kept. */
export interface SpooledFile {
  path?: string;
  size: number;
}

/**
 * A multer storage engine that streams the file to a temporary file while it arrives, never
 * holding it in memory. Past `keepBytes(req)` (the plan's limit) the temporary file is deleted
 * and the rest is only counted, so the size check can still answer 422 (and multer's fileSize
 * limit, the server cap, 413) without the bytes being kept anywhere.
 */
export function spooledUploadStorage(dir: () => string, keepBytes: (req: Request) => number): multer.StorageEngine {
  return {
    _handleFile(req, file, callback) {
      const limit = keepBytes(req);
      const target = path.join(dir(), `markwright-upload-${crypto.randomUUID()}`);
      spool(file.stream, target, limit).then(
        (spooled) => callback(null, spooled),
        (err: unknown) => callback(err as Error),
      );
    },
    _removeFile(_req, file, callback) {
      removeSpooled((file as { path?: string }).path).then(() => callback(null), callback);
    },
  };
}

export async function removeSpooled(file: string | undefined): Promise<void> {
  if (!file) return;
  await fs.rm(file, { force: true });
}

async function spool(source: NodeJS.ReadableStream, target: string, limit: number): Promise<SpooledFile> {
  // 0o600 and 'wx': nobody else reads it, and an existing file is never overwritten.
  const handle = await fs.open(target, 'wx', 0o600);
  let open = true;
  let size = 0;
  const closeAndRemove = async (): Promise<void> => {
    if (open) {
      open = false;
      await handle.close().catch(() => undefined);
    }
    await removeSpooled(target);
  };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size <= limit) {
        handle.write(chunk).then(() => done(), done);
      } else if (open) {
        // Over the plan's limit: nothing more is kept, the rest is counted and dropped.
        closeAndRemove().then(() => done(), done);
      } else {
        done();
      }
    },
  });
  try {
    await pipeline(source, sink);
  } catch (err) {
    await closeAndRemove();
    throw err;
  }
  if (!open) return { size };
  open = false;
  await handle.close();
  return { path: target, size };
}
