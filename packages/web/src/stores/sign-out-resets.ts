// Stores that live in page chunks (the backtest form, the option-chain selection) register how to
// reset themselves here, so a sign-out resets every store (docs/PRODUCT.md section 4) without the shell's
// sign-out code importing those pages and pulling them into the first download.

const resets = new Set<() => void>();

/** Registers a store's reset, run at every sign-out of this tab; returns the unregistration. */
export function resetOnSignOut(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

/** Runs every registered reset (sign-out). */
export function runSignOutResets(): void {
  for (const reset of resets) reset();
}
