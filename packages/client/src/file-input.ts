import { openAsBlob } from 'node:fs';
import path from 'node:path';

/** A file to upload: its bytes and its name (the extension decides how it is converted). */
export interface FileInput {
  data: Blob | Uint8Array | ArrayBuffer;
  filename: string;
}

/** A file on disk as a FileInput, read lazily while it is uploaded; the name defaults to the path's last part. */
export async function fileFromPath(filePath: string, filename = path.basename(filePath)): Promise<FileInput> {
  return { data: await openAsBlob(filePath), filename };
}
