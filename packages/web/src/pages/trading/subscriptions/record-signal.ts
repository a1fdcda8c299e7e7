// When the marketplace's paper records may have changed, as a key that changes with them. The
// records come from the marketplace_paper_records action (other users' runs are not readable, and
// actions are not live), so the page re-reads them when what it may read says they moved:
// - a published strategy's status or update time (a publisher's run starting, pausing, ending);
// - the viewer's own orders on published strategies and on follower runs (their count and filled
//   quantity): the publisher's own fills, and a subscriber's copies of the publisher's fills,
//   which land at the same market moment.
// What no key can show: fills of another user's strategy that the viewer does not follow, between
// its run's start and end; those records move at the run's next status change.

/** The viewer's orders that move with a published strategy's record; one root field, as a subscription must have. */
export const RECORD_SIGNAL = `subscription MarketplaceRecordSignal {
  orders_aggregate(where: { _or: [{ strategy: { published: { _eq: true } } }, { run: { params: { _has_key: "follows" } } }] }) {
    aggregate { count sum { filled_quantity } }
  }
}`;

export interface RecordSignalRow {
  readonly orders_aggregate: { readonly aggregate: { readonly count: number; readonly sum: { readonly filled_quantity: number | string | null } | null } | null };
}

/**
 * The key of what the records depend on that the viewer can see; undefined until both are known.
 * @example recordSignal([{ strategy_id: 's', status: 'ACTIVE', updated_at: 't' }], { orders_aggregate: { aggregate: { count: 2, sum: { filled_quantity: 150 } } } })
 *   // 's ACTIVE t|2 150'
 */
export function recordSignal(
  strategies: readonly { readonly strategy_id: string; readonly status: string; readonly updated_at: string }[] | undefined,
  orders: RecordSignalRow | undefined,
): string | undefined {
  if (strategies === undefined || orders === undefined) return undefined;
  const aggregate = orders.orders_aggregate.aggregate;
  const published = strategies.map((row) => `${row.strategy_id} ${row.status} ${row.updated_at}`).sort().join(',');
  return `${published}|${aggregate?.count ?? 0} ${aggregate?.sum?.filled_quantity ?? 0}`;
}
