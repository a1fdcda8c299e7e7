// Every process's view of the kill switches (table kill_switches, migration 0018): a cache the OMS
// reads before each order leaves, so the check costs no database round trip.
//
// Bound: a switch turned on anywhere is seen here within 1 s. The table's change trigger (migration
// 0009) sends `public.kill_switches` on the `vyuha_table_change` channel at commit; this watch
// LISTENs and reloads at once. Independently it reloads every `pollMs` (500 ms by default), so a
// lost notification or a dropped LISTEN connection delays the news by at most that. The table
// holds one row per user who ever touched a switch, plus the global row: a reload reads it whole.
import pg from 'pg';

/** One switch as stored. `userId` null is the administrators' global switch. */
export interface KillSwitchRow {
  readonly userId: string | null;
  readonly isOn: boolean;
  readonly squareOff: boolean;
  readonly reason: string | null;
  readonly changedBy: string | null;
  readonly changedAtMs: number;
}

export const KILL_SWITCH_CHANNEL = 'vyuha_table_change';
const KILL_SWITCH_PAYLOAD = 'public.kill_switches';
/** The fallback reload period; with the NOTIFY path it keeps "within 1 s" even when a notification is lost. */
export const KILL_SWITCH_POLL_MS = 500;

interface SwitchDbRow {
  user_id: string | null; is_on: boolean; square_off: boolean; reason: string | null; changed_by: string | null; changed_ms: number;
}

/** Reads every kill switch row. */
export async function readKillSwitches(db: pg.Pool | pg.ClientBase): Promise<KillSwitchRow[]> {
  const { rows } = await db.query<SwitchDbRow>(
    `SELECT user_id, is_on, square_off, reason, changed_by, (extract(epoch FROM changed_at) * 1000)::float8 AS changed_ms FROM kill_switches`);
  return rows.map((row) => ({
    userId: row.user_id, isOn: row.is_on, squareOff: row.square_off, reason: row.reason, changedBy: row.changed_by, changedAtMs: Math.round(row.changed_ms),
  }));
}

/** A listener told of every switch whose row changed since the last reload. */
export type KillSwitchListener = (changed: readonly KillSwitchRow[]) => void;

export class KillSwitchWatch {
  private switches = new Map<string, KillSwitchRow>();
  private readonly listeners = new Set<KillSwitchListener>();
  private listenClient: pg.Client | undefined;
  private poll: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;
  private closed = false;

  private constructor(private readonly pool: pg.Pool, private readonly log: (message: string) => void) {}

  /** Loads the switches, then keeps them current (NOTIFY, and a reload every `pollMs`). */
  static async open(options: { readonly pool: pg.Pool; readonly pollMs?: number; readonly log?: (message: string) => void }): Promise<KillSwitchWatch> {
    const watch = new KillSwitchWatch(options.pool, options.log ?? (() => undefined));
    await watch.reload();
    await watch.listen();
    const pollMs = options.pollMs ?? KILL_SWITCH_POLL_MS;
    if (!Number.isSafeInteger(pollMs) || pollMs <= 0 || pollMs > 1_000) throw new RangeError(`pollMs must be from 1 to 1000, got ${pollMs}`);
    watch.poll = setInterval(() => void watch.reload().catch((error: unknown) => watch.log(`kill switch reload failed: ${String(error)}`)), pollMs);
    watch.poll.unref();
    return watch;
  }

  /** Whether the user's own switch and the global one are on, as last loaded. */
  stateFor(userId: string): { readonly user: boolean; readonly global: boolean } {
    return { user: this.switches.get(userId)?.isOn ?? false, global: this.switches.get('')?.isOn ?? false };
  }

  /** The switch of a user (or the global one for null), as last loaded. */
  switchOf(userId: string | null): KillSwitchRow | undefined {
    return this.switches.get(userId ?? '');
  }

  onChange(listener: KillSwitchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reloads now (one reload at a time; a call during one waits for it and then runs its own). */
  async reload(): Promise<void> {
    const previous = this.reloading ?? Promise.resolve();
    const next = previous.then(async () => {
      if (this.closed) return;
      const rows = await readKillSwitches(this.pool);
      const changed = rows.filter((row) => {
        const known = this.switches.get(row.userId ?? '');
        return known === undefined ? row.isOn : known.changedAtMs !== row.changedAtMs || known.isOn !== row.isOn;
      });
      this.switches = new Map(rows.map((row) => [row.userId ?? '', row]));
      if (changed.length > 0) for (const listener of this.listeners) listener(changed);
    });
    this.reloading = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poll !== undefined) clearInterval(this.poll);
    const client = this.listenClient;
    this.listenClient = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.pool.options, application_name: 'vyuha-kill-switch' } as pg.ClientConfig);
    client.on('notification', (message) => {
      if (message.channel === KILL_SWITCH_CHANNEL && message.payload === KILL_SWITCH_PAYLOAD) {
        void this.reload().catch((error: unknown) => this.log(`kill switch reload failed: ${String(error)}`));
      }
    });
    // A lost LISTEN connection leaves the poll: the bound still holds.
    client.on('error', (error) => this.log(`kill switch LISTEN connection lost (the ${KILL_SWITCH_POLL_MS} ms reload continues): ${error.message}`));
    await client.connect();
    await client.query(`LISTEN ${KILL_SWITCH_CHANNEL}`);
    this.listenClient = client;
  }
}
