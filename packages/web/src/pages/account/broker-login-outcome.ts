// The broker login's outcome in words. The login route (packages/server/src/brokers/
// broker-login-outcome.ts, the same list of codes) always returns the browser to
// /users/edit?tab=brokers&broker_login=ok|error&code=...&broker=...&client_id=...; this turns that
// into what happened and what to do. Only codes and ids travel in the address, and anything that
// does not match their patterns is dropped, so a crafted link cannot put its own text on the page.

export type BrokerLoginOutcome =
  | { readonly kind: 'ok'; readonly broker?: string; readonly clientId?: string }
  | { readonly kind: 'error'; readonly code: string; readonly broker?: string; readonly clientId?: string; readonly signedInAs?: string };

export interface BrokerLoginNotice {
  readonly color: 'teal' | 'red' | 'yellow';
  readonly title: string;
  readonly message: string;
}

const CODE = /^[a-z][a-z-]{0,39}$/;
const BROKER_ID = /^[a-z0-9]{1,32}$/;
const CLIENT_ID = /^[A-Za-z0-9_-]{2,32}$/;

/** The outcome in the address, or undefined when the address carries none. */
export function readBrokerLoginOutcome(params: URLSearchParams): BrokerLoginOutcome | undefined {
  const kind = params.get('broker_login');
  if (kind !== 'ok' && kind !== 'error') return undefined;
  const pick = (name: string, pattern: RegExp) => {
    const value = params.get(name);
    return value !== null && pattern.test(value) ? value : undefined;
  };
  const ids = {
    ...(pick('broker', BROKER_ID) === undefined ? {} : { broker: pick('broker', BROKER_ID) as string }),
    ...(pick('client_id', CLIENT_ID) === undefined ? {} : { clientId: pick('client_id', CLIENT_ID) as string }),
  };
  if (kind === 'ok') return { kind, ...ids };
  const signedInAs = pick('signed_in_as', CLIENT_ID);
  return { kind, code: pick('code', CODE) ?? 'unknown', ...ids, ...(signedInAs === undefined ? {} : { signedInAs }) };
}

/** The console where a Kite Connect app's key and secret are shown. */
const KITE_CONSOLE = 'the Kite Connect developer console';

type Words = (names: { broker: string; client: string; signedInAs: string }) => string;

/** Every code of the login route, in words. */
export const BROKER_LOGIN_ERROR_WORDS: Readonly<Record<string, Words>> = {
  'unknown-broker': () => 'There is no such broker in Vyuha. Pick one of the brokers offered when you add an account.',
  'account-not-found': ({ broker, client }) => `You have no ${broker} account ${client} here. Add it below, then log in.`,
  'not-supported': ({ broker }) =>
    `Logging in to ${broker} is not supported yet: today only Zerodha (Kite Connect) logs in. The account stays recorded here, and nothing is sent to ${broker}.`,
  'api-key-missing': ({ broker, client }) =>
    `${broker} account ${client} has no API key. Delete it and add it again with the API key of your Kite Connect app (${KITE_CONSOLE} shows it), then log in.`,
  'api-secret-missing': ({ broker, client }) =>
    `${broker} account ${client} has no API secret stored. Use "Set API secret" on its row (${KITE_CONSOLE} shows the secret), then log in.`,
  'secret-key-missing': () =>
    'This server has no key to read API secrets (VYUHA_BROKER_SECRET_KEY is not set), so it cannot log in to brokers. Ask its administrator.',
  'secret-unreadable': ({ client }) =>
    `The stored API secret of ${client} can no longer be read: the server's key has changed. Use "Set API secret" on its row, then log in.`,
  'callback-invalid': ({ broker }) => `${broker} sent you back without a completed login: it was cancelled or failed there. Log in again.`,
  'api-secret-wrong': ({ broker, client }) =>
    `${broker} refused the API secret of ${client}. Use "Set API secret" on its row and paste it exactly as ${KITE_CONSOLE} shows it, then log in.`,
  'request-token-expired': ({ broker }) =>
    `The one-time login from ${broker} had expired or was already used (reloading the page does that). Log in again.`,
  'broker-refused': ({ broker }) => `${broker} refused the login. Try again; if it keeps failing, check the app in ${KITE_CONSOLE}.`,
  'broker-unreachable': ({ broker }) => `${broker} could not be reached from the server. Check the server's internet connection and try again.`,
  'broker-timeout': ({ broker }) => `${broker} did not answer in time. Try again in a minute.`,
  'broker-answer-invalid': ({ broker }) => `${broker}'s answer could not be read. Try again later; if it keeps happening, tell support.`,
  'wrong-user': ({ broker, client, signedInAs }) =>
    `You signed in to ${broker} as ${signedInAs}, but this account is ${client}. Sign out at ${broker} and sign in as ${client}, or add ${signedInAs} as an account of its own.`,
};

/**
 * The notice for an outcome; `brokerName` turns a broker id into its name (the `brokers` table).
 * @example describeBrokerLogin({ kind: 'error', code: 'not-supported', broker: 'upstox', clientId: 'UP1' }, () => 'Upstox').title // 'Upstox login is not supported yet'
 */
export function describeBrokerLogin(outcome: BrokerLoginOutcome, brokerName: (broker: string) => string | undefined): BrokerLoginNotice {
  const broker = (outcome.broker === undefined ? undefined : brokerName(outcome.broker)) ?? outcome.broker ?? 'the broker';
  const client = outcome.clientId ?? 'this account';
  if (outcome.kind === 'ok') {
    return {
      color: 'teal',
      title: `Logged in to ${broker}`,
      message: `Today's session of ${client} is stored, and the broker has confirmed the client id is yours. Brokers end sessions every day: log in again before the next trading day.`,
    };
  }
  const words = BROKER_LOGIN_ERROR_WORDS[outcome.code];
  if (words === undefined) {
    return { color: 'red', title: 'The broker login did not complete', message: `The login to ${broker} failed (${outcome.code}). Try again; if it keeps failing, tell support.` };
  }
  const title = outcome.code === 'not-supported' ? `${broker} login is not supported yet` : 'The broker login did not complete';
  return {
    color: outcome.code === 'not-supported' ? 'yellow' : 'red',
    title,
    message: words({ broker, client, signedInAs: outcome.signedInAs ?? 'another client id' }),
  };
}
