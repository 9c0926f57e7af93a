import type { ConversionFinished } from '@markwright/contracts';

/** What a waiting sync request learns: the status, and the result when the event carries it. */
export type FinishedNotice = Pick<ConversionFinished, 'status' | 'result'>;
type Waiter = (notice: FinishedNotice) => void;

/**
 * The sync requests of this gateway waiting for their conversion to finish, keyed by conversion
 * id. The finished-events consumer (entry-points/finished-listener.ts) tells it what finished.
 */
export class FinishedWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** Resolves with the first announcement that the conversion finished; `cancel` forgets the waiter. */
  waitFor(conversionId: string): { promise: Promise<FinishedNotice>; cancel: () => void } {
    let waiter!: Waiter;
    const promise = new Promise<FinishedNotice>((resolve) => (waiter = resolve));
    const set = this.waiters.get(conversionId) ?? new Set();
    set.add(waiter);
    this.waiters.set(conversionId, set);
    const cancel = (): void => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(conversionId);
    };
    return { promise, cancel };
  }

  /** A conversion finished: every request waiting for it wakes with the notice. */
  finished(event: ConversionFinished): void {
    for (const waiter of this.waiters.get(event.conversionId) ?? [])
      waiter({ status: event.status, result: event.result });
  }
}
