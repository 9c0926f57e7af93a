/** UPLOADS_PER_WORKSPACE's default (packages/config): a few files at once, past it 429. */
export const DEFAULT_UPLOADS_PER_WORKSPACE = 4;

/** A held slot: released once, however many times release() is called. */
export interface UploadSlot {
  release(): void;
}

/**
 * How many uploads each workspace may have in flight in this gateway at once. An upload holds
 * its slot from before its body is read until its bytes are stored (or the request ends), so
 * the memory and disk one workspace can tie up are bounded by the cap times its plan's limit.
 */
export class UploadSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perWorkspace: number) {}

  /** A slot for the workspace, or null when it already has `perWorkspace` uploads in flight. */
  acquire(workspaceId: string): UploadSlot | null {
    const held = this.inFlight.get(workspaceId) ?? 0;
    if (held >= this.perWorkspace) return null;
    this.inFlight.set(workspaceId, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.inFlight.get(workspaceId) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(workspaceId);
        else this.inFlight.set(workspaceId, left);
      },
    };
  }

  held(workspaceId: string): number {
    return this.inFlight.get(workspaceId) ?? 0;
  }
}
