// A broker feed that also stores what it delivers: every tick passes on to the run unchanged, and
// each 1-minute candle it completes is written to the candle store (source 'broker'). A LIVE run
// that restarts mid-session plays these minutes to catch up (market-session.ts
// playStoredMinutes), and the charts show the session as it traded. Writes are chained in the
// background (never delaying a tick) and repeats are harmless (ON CONFLICT DO NOTHING), so several
// runs recording the same index write each minute once.
import type { FeedEnd, FeedIssue, FeedKind, FeedPort, FeedTick, TickSink } from '@vyuha/engine';
import { CandleBuilder } from '@vyuha/engine';
import type { Result } from '@vyuha/core';
import type pg from 'pg';
import { writeCandles } from '../../market-data/candle-store';

export class RecordedFeed implements FeedPort {
  readonly kind: FeedKind;
  private readonly builder = new CandleBuilder({ intervalMinutes: 1, exchange: 'NSE' });
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly inner: FeedPort, private readonly options: { readonly pool: pg.Pool; readonly log?: (message: string) => void }) {
    this.kind = inner.kind;
  }

  subscribe(instrumentIds: readonly number[]): Result<void, FeedIssue[]> {
    return this.inner.subscribe(instrumentIds);
  }

  unsubscribe(instrumentIds: readonly number[]): void {
    this.inner.unsubscribe(instrumentIds);
  }

  run(sink: TickSink): Promise<FeedEnd> {
    return this.inner.run({
      onTick: (tick: FeedTick) => {
        const closed = this.builder.push(tick);
        if (closed !== undefined) this.store(closed.instrumentId, closed);
        return sink.onTick(tick);
      },
    });
  }

  stop(): void {
    this.inner.stop();
  }

  /** Resolves once every candle completed so far is stored (or its failure logged). */
  flushed(): Promise<void> {
    return this.writing;
  }

  private store(instrumentId: number, candle: { time: number; open: number; high: number; low: number; close: number; volume: number }): void {
    const { pool, log } = this.options;
    const one = (value: number): Int32Array => Int32Array.of(value);
    this.writing = this.writing.then(async () => {
      await writeCandles(pool, {
        instrumentId, source: 'broker',
        candles: {
          length: 1, time: Float64Array.of(candle.time), open: one(candle.open), high: one(candle.high), low: one(candle.low), close: one(candle.close),
          volume: Float64Array.of(candle.volume),
        },
      });
    }).catch((error: unknown) => log?.(`a live minute of instrument ${instrumentId} was not stored: ${(error as Error).message}`));
  }
}
