// The trading alerts' kinds (migration 0023, trading_alerts.kind) as a short title and what the
// link does; the row's own message says the details, and `action_path` where to go about it.

export interface AlertWords {
  readonly title: string;
  /** The link's label when the alert has an action path. */
  readonly linkLabel: string;
  readonly color: 'red' | 'orange' | 'blue';
}

const WORDS: Readonly<Record<string, AlertWords>> = {
  'broker-session-missing': { title: 'Broker login needed', linkLabel: 'Log in to the broker', color: 'red' },
  'broker-session-lost': { title: 'Broker session ended', linkLabel: 'Log in to the broker again', color: 'red' },
  'unexplained-position': { title: 'Strategies paused: a position we did not place', linkLabel: 'Open', color: 'red' },
  'margin-short': { title: 'Margin short', linkLabel: 'Open', color: 'orange' },
  'order-unresolved': { title: 'An order needs checking', linkLabel: 'Open', color: 'orange' },
  'rate-limited': { title: 'Orders slowed by the broker', linkLabel: 'Open', color: 'blue' },
  reconciled: { title: 'Positions reconciled with the broker', linkLabel: 'Open', color: 'blue' },
  'follow-not-live': { title: 'A LIVE subscription did not trade', linkLabel: 'Open', color: 'orange' },
};

/** @example alertWords('broker-session-lost').title // 'Broker session ended' */
export function alertWords(kind: string): AlertWords {
  return WORDS[kind] ?? { title: 'Trading alert', linkLabel: 'Open', color: 'orange' };
}

/**
 * Where an alert's link goes: a path inside this app only (the server writes them; anything
 * else, such as a full URL, is not followed from here).
 * @example alertLink('/brokers/login?broker=kite') // '/brokers/login?broker=kite'
 * @example alertLink('https://example.com') // undefined
 */
export function alertLink(actionPath: string | null | undefined): string | undefined {
  if (typeof actionPath !== 'string' || !actionPath.startsWith('/') || actionPath.startsWith('//')) return undefined;
  return actionPath;
}
