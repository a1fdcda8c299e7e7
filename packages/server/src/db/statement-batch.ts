// Calls of one statement made together, run as one statement. At a bar boundary every strategy
// decides on the same tick, and each decision reads its risk inputs and writes its order: as a
// dozen statements at once, each waits behind the others for the database's two cores and for a
// connection; as one statement over arrays (unnest) the database does the same rows in one pass,
// one parse, one plan and one commit. The calls made in one turn of the event loop (before its
// check phase) are one batch; a lone call waits one `setImmediate` longer, nothing more.
//
// A batch's statement that fails is run again call by call, so a call fails only for its own
// input (a row another writer took, a constraint its values break), never for its neighbour's.

export interface StatementBatchOptions<I, O> {
  /** Runs the statement for every input: one output per input, in the inputs' order. */
  readonly run: (inputs: readonly I[]) => Promise<readonly O[]>;
  /** The most inputs in one statement (more are split into several); default 200. */
  readonly maxSize?: number;
}

interface Waiting<I, O> {
  readonly input: I;
  readonly resolve: (output: O) => void;
  readonly reject: (error: unknown) => void;
}

export class StatementBatch<I, O> {
  private readonly run: (inputs: readonly I[]) => Promise<readonly O[]>;
  private readonly maxSize: number;
  private waiting: Waiting<I, O>[] = [];
  private scheduled = false;

  constructor(options: StatementBatchOptions<I, O>) {
    this.run = options.run;
    this.maxSize = options.maxSize ?? 200;
    if (!Number.isSafeInteger(this.maxSize) || this.maxSize < 1) throw new RangeError(`maxSize must be a whole number above 0, got ${this.maxSize}`);
  }

  /**
   * The output for `input`, from the statement that runs it with the other calls of this turn.
   * @example const risk = await riskReads.call({ runId, instrumentId })
   */
  call(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    for (let start = 0; start < batch.length; start += this.maxSize) void this.runBatch(batch.slice(start, start + this.maxSize));
  }

  private async runBatch(batch: readonly Waiting<I, O>[]): Promise<void> {
    let outputs: readonly O[];
    try {
      outputs = await this.run(batch.map((entry) => entry.input));
      if (outputs.length !== batch.length) throw new Error(`a batched statement answered ${outputs.length} outputs for ${batch.length} inputs`);
    } catch (error) {
      if (batch.length === 1) {
        (batch[0] as Waiting<I, O>).reject(error);
        return;
      }
      // One input may have failed the whole statement: each runs alone, and only its own fails.
      await Promise.all(batch.map((entry) => this.runBatch([entry])));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(outputs[index] as O));
  }
}

/**
 * One batch per key object (a pool): `batchFor(pool)` gives the same batch for every caller on the
 * same pool, made by `create` the first time.
 */
export function batchPerKey<K extends object, I, O>(create: (key: K) => StatementBatch<I, O>): (key: K) => StatementBatch<I, O> {
  const batches = new WeakMap<K, StatementBatch<I, O>>();
  return (key) => {
    let batch = batches.get(key);
    if (batch === undefined) {
      batch = create(key);
      batches.set(key, batch);
    }
    return batch;
  };
}
