// The buffers a block program computes in (expression-plan.ts instantiateBlocks, compile.ts),
// kept from one program to the next: a sweep makes a program per run over the same series, and
// each used to take its slots' columns and its fired bytes from the allocator (16 KB a slot), with
// fresh pages and garbage collections over memory outside the JS heap to pay for. Programs that
// take them from here get the same zeros a new column holds.
//
// Invariant: what `take` and `fired` gave before belongs to the next program that asks; a program
// made with them must be done (its run measured) before another is made from the same BlockColumns.
import { BLOCK_BARS } from './block-steps';

export class BlockColumns {
  private readonly columns: Float64Array[] = [];
  private firedBytes: Uint8Array | undefined;

  /** `count` columns of BLOCK_BARS zeros, the ones handed out before among them. */
  take(count: number): Float64Array[] {
    while (this.columns.length < count) this.columns.push(new Float64Array(BLOCK_BARS));
    const taken = this.columns.slice(0, count);
    for (const column of taken) column.fill(0);
    return taken;
  }

  /** BLOCK_BARS bytes for a program's fired bits (compile.ts precomputedProgram), every one of them written before it is read. */
  fired(): Uint8Array {
    this.firedBytes ??= new Uint8Array(BLOCK_BARS);
    return this.firedBytes;
  }
}
