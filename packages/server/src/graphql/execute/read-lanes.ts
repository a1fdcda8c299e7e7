/**
 * Read statements pipelined on a few pooled connections ("lanes"): node-postgres' pipeline mode
 * writes a statement without waiting for the answer to the one before, so many concurrent reads
 * share a connection and PostgreSQL answers them back to back. Under load this does several
 * times the statements per second of one-statement-per-checkout, for the same CPU.
 *
 * Each statement still has its own Sync, so it runs in its own implicit transaction with its own
 * snapshot, and an error fails that statement only. Lanes are borrowed from the pool while reads
 * are in flight and given back (pipeline mode off again) as soon as a lane has none left, so an
 * idle engine holds no connection and `pool.end()` is never held up. Transactions (mutations) and
 * cursors (CSV) never use lanes: they check out their own client.
 * The price: a slow statement delays the statements queued behind it on its lane; new reads go
 * to the least busy lane, and at most `maxInFlight` wait on one lane while another can be opened.
 */
import type pg from 'pg';

interface Lane {
  readonly client: pg.PoolClient & { pipeline: boolean; connection?: { stream?: Partial<Pick<NodeJS.WritableStream & { cork(): void; uncork(): void }, 'cork' | 'uncork'>> } };
  inFlight: number;
  /** Statements sent on this lane since it was borrowed. */
  sent: number;
  /** Writes are held until the current event-loop turn's I/O is handled (see `hold`). */
  corked: boolean;
  /** The connection failed: no new statements; destroyed once the last one settles. */
  broken: Error | undefined;
  /** Listens for the connection's failure while the lane is checked out (the pool only listens on idle clients). */
  readonly onError: (error: Error) => void;
}

export interface ReadLanesOptions {
  /** Checks out a client whose session is ready (UTC); released with `release()`. */
  connect(): Promise<pg.PoolClient>;
  /** Most lanes at once (each is one pooled connection). */
  readonly maxLanes: number;
  /** Statements queued on one lane before another lane is opened (when allowed). */
  readonly maxInFlight: number;
  /**
   * Statements a lane carries before it takes no more and goes back to the pool once drained:
   * under a steady read load no lane is ever idle, and transactions waiting for a connection of
   * a small pool get their turn this way.
   */
  readonly recycleAfter: number;
}

export class ReadLanes {
  private readonly lanes: Lane[] = [];
  /** Lanes being borrowed from the pool right now. */
  private readonly opening = new Set<Promise<Lane>>();

  constructor(private readonly options: ReadLanesOptions) {}

  /** Runs one read statement on a lane; rows as arrays. */
  async query(config: pg.QueryArrayConfig): Promise<unknown[][]> {
    // Both return the lane with this statement already counted, so no other statement's
    // completion can retire it in between.
    const lane = this.pick() ?? (await this.acquire());
    hold(lane);
    try {
      const result = await lane.client.query(config);
      return result.rows;
    } catch (error) {
      // A PostgreSQL error (it has a SQLSTATE code) fails this statement only; anything else
      // means the connection is gone.
      if (typeof (error as { code?: unknown }).code !== 'string') this.markBroken(lane, error as Error);
      throw error;
    } finally {
      lane.inFlight -= 1;
      if (lane.inFlight === 0) this.retire(lane);
    }
  }

  /** The least busy lane, unless it is full and another may be opened. */
  private pick(): Lane | undefined {
    let best: Lane | undefined;
    for (const lane of this.lanes) if (best === undefined || lane.inFlight < best.inFlight) best = lane;
    const mayOpen = this.lanes.length + this.opening.size < this.options.maxLanes;
    if (!best || (best.inFlight >= this.options.maxInFlight && mayOpen)) return undefined;
    best.inFlight += 1;
    best.sent += 1;
    if (best.sent >= this.options.recycleAfter) this.remove(best);
    return best;
  }

  /** A lane when none could be picked at once: a new one if allowed, else the next one opened. */
  private async acquire(): Promise<Lane> {
    for (;;) {
      if (this.lanes.length + this.opening.size < this.options.maxLanes) return this.open();
      // As many lanes as allowed are being opened: wait for one, then take the least busy.
      await Promise.race(this.opening).catch(() => undefined);
      const lane = this.pick();
      if (lane) return lane;
    }
  }

  private open(): Promise<Lane> {
    const opened = this.borrow();
    this.opening.add(opened);
    // Registered before anyone waits on it: a waiter always sees it gone from `opening`.
    const forget = (): void => {
      this.opening.delete(opened);
    };
    opened.then(forget, forget);
    return opened;
  }

  private async borrow(): Promise<Lane> {
    const client = (await this.options.connect()) as Lane['client'];
    const lane: Lane = {
      client, inFlight: 1, sent: 1, corked: false, broken: undefined,
      onError: (error) => this.markBroken(lane, error),
    };
    client.on('error', lane.onError);
    client.pipeline = true;
    this.lanes.push(lane);
    return lane;
  }

  private markBroken(lane: Lane, error: Error): void {
    lane.broken = error;
    this.remove(lane);
  }

  private remove(lane: Lane): void {
    const index = this.lanes.indexOf(lane);
    if (index >= 0) this.lanes.splice(index, 1);
  }

  /** Gives an idle lane back to the pool (in its ordinary, one-at-a-time mode). */
  private retire(lane: Lane): void {
    this.remove(lane);
    lane.client.removeListener('error', lane.onError);
    lane.client.pipeline = false;
    lane.client.release(lane.broken);
  }
}

/**
 * Corks the lane's socket until the check phase of this event-loop turn: every statement the
 * turn's requests send on the lane leaves in ONE write instead of one write (a system call) per
 * statement. node-postgres corks around each statement itself; corks nest, so its uncork does not
 * flush ours. Adds no waiting beyond the I/O callbacks already queued in this turn.
 */
function hold(lane: Lane): void {
  const stream = lane.client.connection?.stream;
  if (lane.corked || typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  lane.corked = true;
  stream.cork();
  setImmediate(() => {
    lane.corked = false;
    stream.uncork?.();
  });
}
