/**
 * Runs many callers' rows of one kind of statement as one statement (group commit): a call made
 * while the previous batch is still running waits for it and goes with the next, together with
 * every call made meanwhile. An idle batcher sends at the end of the current turn of the event
 * loop (setImmediate), so calls made in the same turn (deliveries read from one socket chunk,
 * requests parsed together) share a statement. Under load each statement carries what queued
 * during the last one, so the statements (round trips, socket writes, commits and WAL flushes)
 * per call fall as the load rises, and a lone call waits for nothing but its own turn.
 *
 * `run` answers the keys in the order it was given them; a batch that fails rejects every call in
 * it with that error, so each caller's own handling (retry on a lost connection, a failure of its
 * own) applies. When `runOne` is given, a batch of more than one that fails for any reason but a
 * lost connection runs each call on its own instead, so a row PostgreSQL refuses fails alone.
 */
export interface StatementBatchOptions<In, Out> {
  run: (inputs: In[]) => Promise<Out[]>;
  /** Calls per statement at most (the rest go with the next). */
  maxBatch: number;
  /** A call on its own: a call that goes alone, and each call of a batch that failed (not a lost connection). */
  runOne?: (input: In) => Promise<Out>;
  /**
   * Calls sent at once by a statement of their own, beside the batches (e.g. a long result's
   * text): a slow statement never holds up the batch behind it.
   */
  alone?: (input: In) => boolean;
  /** Whether a batch's error is a lost connection: then the batch is not split, the callers retry. */
  isConnectionLoss?: (err: unknown) => boolean;
  /**
   * Calls of one key never share a statement (e.g. two charges of one workspace, whose balance
   * the second must read after the first): a later one waits for a later statement, in order.
   */
  key?: (input: In) => string;
}

interface Pending<In, Out> {
  input: In;
  resolve: (value: Out) => void;
  reject: (err: unknown) => void;
}

export class StatementBatch<In, Out> {
  private queue: Pending<In, Out>[] = [];
  private running = false;
  private scheduled = false;

  constructor(private readonly options: StatementBatchOptions<In, Out>) {}

  call(input: In): Promise<Out> {
    if (this.options.alone?.(input)) {
      return this.options.runOne
        ? this.options.runOne(input)
        : this.options.run([input]).then((results) => results[0]!);
    }
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    if (this.running || this.queue.length === 0) return;
    const batch = this.take();
    this.running = true;
    void this.send(batch).finally(() => {
      this.running = false;
      this.next();
    });
  }

  /** Up to maxBatch calls in order. A call whose key is in the batch already stays queued, ahead of later calls. */
  private take(): Pending<In, Out>[] {
    const { maxBatch, key } = this.options;
    if (!key) return this.queue.splice(0, maxBatch);
    const batch: Pending<In, Out>[] = [];
    const keys = new Set<string>();
    const left: Pending<In, Out>[] = [];
    let i = 0;
    for (; i < this.queue.length && batch.length < maxBatch; i += 1) {
      const p = this.queue[i]!;
      const k = key(p.input);
      if (keys.has(k)) {
        left.push(p);
        continue;
      }
      keys.add(k);
      batch.push(p);
    }
    this.queue = [...left, ...this.queue.slice(i)];
    return batch;
  }

  private async send(batch: Pending<In, Out>[]): Promise<void> {
    let results: Out[];
    try {
      results = await this.options.run(batch.map((p) => p.input));
    } catch (err) {
      const { runOne, isConnectionLoss } = this.options;
      if (batch.length === 1 || !runOne || isConnectionLoss?.(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // One row may be what PostgreSQL refused: each call on its own, so only that one fails.
      for (const p of batch) await runOne(p.input).then(p.resolve, p.reject);
      return;
    }
    batch.forEach((p, i) => p.resolve(results[i]!));
  }
}
