// Whose a broker client id is, as the account page shows it. Several users may record the same
// client id; the broker's daily login settles it (migration 0014, packages/server/src/brokers/
// broker-ownership.ts): the row that logs in is `verified`, every other user's row with that id
// becomes `claimed_elsewhere` and is switched off until its owner logs in at the broker.

export type BrokerOwnership = 'unverified' | 'verified' | 'claimed_elsewhere';

export interface OwnershipStatus {
  readonly label: string;
  readonly color: 'teal' | 'gray' | 'red';
  /** One sentence for the row's tooltip. */
  readonly description: string;
}

/**
 * The row's status badge.
 * @example ownershipStatus({ ownership: 'unverified', ownership_checked_at: null }).label // 'Not verified'
 */
export function ownershipStatus(row: { readonly ownership: BrokerOwnership; readonly ownership_checked_at: string | null }): OwnershipStatus {
  switch (row.ownership) {
    case 'verified':
      return { label: 'Verified', color: 'teal', description: 'The broker confirmed at your last login that this client id is yours.' };
    case 'claimed_elsewhere':
      return { label: 'Claimed elsewhere', color: 'red', description: 'Another Vyuha account logged in at the broker with this client id.' };
    case 'unverified':
      return { label: 'Not verified', color: 'gray', description: 'Log in to the broker once: its answer proves the client id is yours.' };
  }
}

/**
 * What the owner of a row the broker gave to someone else should know and do.
 * @example claimedElsewhereMessage({ brokerName: 'Zerodha', clientId: 'AB1234' }) // 'Another Vyuha account logged in to Zerodha as AB1234, ...'
 */
export function claimedElsewhereMessage(row: { readonly brokerName: string; readonly clientId: string }): string {
  return `Another Vyuha account logged in to ${row.brokerName} as ${row.clientId}, so the broker says the client id is theirs. `
    + 'Your row is switched off and cannot trade. If the client id is yours, someone else has signed in to your broker account: '
    + 'change your broker password, then log in here again to take it back. If it is not yours, delete the row.';
}
