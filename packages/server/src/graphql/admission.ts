/**
 * How many GraphQL operations this process works on at once (HTTP requests, CSV exports and
 * WebSocket queries, mutations and subscription starts). Each holds its request and, until it is
 * sent, its response (up to the response ceiling): bounding them bounds the heap whatever the
 * mix. Past the limit an operation waits in a short queue (an HTTP request waits before its
 * body is read, so a waiting 1 MiB body is still in the kernel, not in the heap); a full queue
 * or a long wait is refused. One client address may hold at most `maxInFlightPerAddress` slots,
 * so a few slow readers cannot take every slot.
 */

export interface AdmissionLimits {
  /** Operations worked on at once. */
  readonly maxInFlight: number;
  /** Of those, at most this many for one client address. */
  readonly maxInFlightPerAddress: number;
  /** Operations waiting for a slot; more are refused at once. */
  readonly maxQueued: number;
  /** Longest wait for a slot before the operation is refused. */
  readonly queueTimeoutMs: number;
}

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  readonly address: string;
  readonly admit: (release: Release | undefined) => void;
  timer: NodeJS.Timeout | undefined;
}

export class Admission {
  private active = 0;
  private readonly perAddress = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: AdmissionLimits) {}

  /** A slot for an operation from `address`, once one is free; undefined when refused (queue full, or waited too long). */
  enter(address: string): Promise<Release | undefined> {
    if (this.fits(address)) return Promise.resolve(this.take(address));
    if (this.waiting.length >= this.limits.maxQueued) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = { address, admit: resolve, timer: undefined };
      waiter.timer = setTimeout(() => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) this.waiting.splice(index, 1);
        resolve(undefined);
      }, this.limits.queueTimeoutMs);
      waiter.timer.unref();
      this.waiting.push(waiter);
    });
  }

  /** Operations holding a slot, and waiting for one. */
  statistics(): { inFlight: number; queued: number } {
    return { inFlight: this.active, queued: this.waiting.length };
  }

  private fits(address: string): boolean {
    return this.active < this.limits.maxInFlight && (this.perAddress.get(address) ?? 0) < this.limits.maxInFlightPerAddress;
  }

  private take(address: string): Release {
    this.active += 1;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
      this.admitNext();
    };
  }

  /** The first waiter whose address has room takes the freed slot. */
  private admitNext(): void {
    const index = this.waiting.findIndex((waiter) => this.fits(waiter.address));
    if (index === -1) return;
    const [waiter] = this.waiting.splice(index, 1);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    waiter.admit(this.take(waiter.address));
  }
}
