/**
 * The conversions this converter is running, each with the signal that aborts its worker task
 * (E7): a cancel for one of them terminates the worker thread converting it.
 */
export class RunningConversions {
  private readonly running = new Map<string, Set<AbortController>>();

  /** Registers a job before it is claimed, so a cancel sent once the claim committed cannot be missed. */
  begin(conversionId: string): { signal: AbortSignal; end: () => void } {
    const controller = new AbortController();
    const set = this.running.get(conversionId) ?? new Set();
    set.add(controller);
    this.running.set(conversionId, set);
    return {
      signal: controller.signal,
      end: () => {
        set.delete(controller);
        if (set.size === 0 && this.running.get(conversionId) === set) this.running.delete(conversionId);
      },
    };
  }

  /** Aborts the conversion if it runs here; true when it did. */
  cancel(conversionId: string): boolean {
    const set = this.running.get(conversionId);
    if (!set) return false;
    for (const controller of set) controller.abort();
    return true;
  }
}
