// One operation at a time per key (an order's client order id): a send, a venue event and a
// cancel of the same order run one after the other inside a process, in the order they asked.
// Across processes the order's row lock (SELECT ... FOR UPDATE) does the same job.

export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier `run` of the same key has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
