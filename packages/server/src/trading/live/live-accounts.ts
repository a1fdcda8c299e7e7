// The LIVE accounts a worker has open: one LiveAccount per broker account, shared by every run of
// the account in this process (one OMS, one venue, one ticker), opened by the first run that needs
// it and closed when the last one lets go.
//
// One process per account. The rate limits (10 orders a second per segment, Kite's 10/s, 400/min
// and 5,000/day) hold only if one process sends all of an account's orders, so opening an account
// takes its advisory lock on a connection held while it is open; a second worker asking for the
// same account is told it is held elsewhere, and its run is released for the holder to take.
import { err, ok, type Result } from '@vyuha/core';
import pg from 'pg';
import type { BrokerSessionProblem } from '../../brokers/broker-sessions';
import { LiveAccount, type LiveAccountOptions } from './live-account';

/** Why an account could not be opened here: its session (the user's to fix) or another worker holding it. */
export type LiveAccountRefusal = BrokerSessionProblem | { readonly code: 'held-elsewhere'; readonly message: string };

interface Entry {
  readonly account: LiveAccount;
  readonly lease: pg.Client;
  users: number;
}

export class LiveAccounts {
  private readonly open = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<Result<Entry, LiveAccountRefusal>>>();
  private closed = false;

  constructor(private readonly options: Omit<LiveAccountOptions, 'userBrokerId'>) {}

  /** The account open for LIVE trading, shared with this process's other runs of it; `release` when done. */
  async acquire(userBrokerId: string): Promise<Result<{ readonly account: LiveAccount; release(): Promise<void> }, LiveAccountRefusal>> {
    if (this.closed) return err({ code: 'held-elsewhere', message: 'this worker is stopping' });
    let entry = this.open.get(userBrokerId);
    if (entry === undefined) {
      let opening = this.opening.get(userBrokerId);
      if (opening === undefined) {
        opening = this.openEntry(userBrokerId).finally(() => this.opening.delete(userBrokerId));
        this.opening.set(userBrokerId, opening);
      }
      const opened = await opening;
      if (!opened.ok) return opened;
      entry = opened.value;
    }
    entry.users += 1;
    const held = entry;
    let released = false;
    return ok({
      account: held.account,
      release: async () => {
        if (released) return;
        released = true;
        held.users -= 1;
        if (held.users === 0 && this.open.get(userBrokerId) === held) await this.closeEntry(userBrokerId, held);
      },
    });
  }

  /** Closes every account (the worker is stopping). */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.open].map(([id, entry]) => this.closeEntry(id, entry)));
  }

  private async openEntry(userBrokerId: string): Promise<Result<Entry, LiveAccountRefusal>> {
    const lease = new pg.Client(this.options.pool.options);
    lease.on('error', () => undefined);
    await lease.connect();
    const { rows } = await lease.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtextextended('vyuha.live-account:' || $1, 0)) AS locked`, [userBrokerId]);
    if (rows[0]?.locked !== true) {
      await lease.end().catch(() => undefined);
      return err({ code: 'held-elsewhere', message: `broker account ${userBrokerId} is traded by another worker` });
    }
    const opened = await LiveAccount.open({ ...this.options, userBrokerId }).catch(async (error: unknown) => {
      await lease.end().catch(() => undefined);
      throw error;
    });
    if (!opened.ok) {
      await lease.end().catch(() => undefined);
      return opened;
    }
    const entry: Entry = { account: opened.value, lease, users: 0 };
    this.open.set(userBrokerId, entry);
    return ok(entry);
  }

  private async closeEntry(userBrokerId: string, entry: Entry): Promise<void> {
    this.open.delete(userBrokerId);
    try {
      await entry.account.close();
    } finally {
      await entry.lease.end().catch(() => undefined);
    }
  }
}
