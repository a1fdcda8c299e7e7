// Which sign-in and sign-up methods the screens offer: those the auth service has switched on
// (GET /v1/auth/methods, packages/server/src/auth/README.md), never a tab that would answer "This
// endpoint is disabled". Security keys also need a page the browser will run them on: a
// relying party id is a domain name the page's host equals or ends with, never an IP address,
// and the server accepts only its configured origins. So at http://127.0.0.1:8080 the key tabs
// stay hidden and the screen says where keys do work (http://localhost:8080 in the demo world).
import { useEffect, useState } from 'react';
import { authCall } from '../../auth/auth-api';

/** The answer of GET /v1/auth/methods. */
export interface EnabledMethods {
  readonly emailPassword: { readonly signIn: boolean; readonly signUp: boolean };
  readonly magicLink: boolean;
  readonly emailOtp: boolean;
  readonly smsOtp: boolean;
  readonly anonymous: boolean;
  readonly totp: boolean;
  readonly personalAccessTokens: boolean;
  readonly securityKeys: { readonly enabled: boolean; readonly rpId: string; readonly origins: readonly string[] };
  readonly oauthProviders: readonly string[];
  readonly delivery: { readonly email: 'smtp' | 'outbox'; readonly sms: 'outbox' };
}

/** Before the answer arrives, or when it cannot be read: the one method every server has. */
export const PASSWORD_ONLY: EnabledMethods = {
  emailPassword: { signIn: true, signUp: true },
  magicLink: false,
  emailOtp: false,
  smsOtp: false,
  anonymous: false,
  totp: true,
  personalAccessTokens: true,
  securityKeys: { enabled: false, rpId: '', origins: [] },
  oauthProviders: [],
  delivery: { email: 'smtp', sms: 'outbox' },
};

export type SignInMethod = 'password' | 'magic-link' | 'sms' | 'security-key';

/** Where security keys stand on this page. */
export type SecurityKeyUse =
  | { readonly kind: 'off' }
  | { readonly kind: 'here' }
  /** On at the server, but not on this page's origin: `at` is where they work. */
  | { readonly kind: 'elsewhere'; readonly at: string };

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Whether security keys can run on a page at `origin`.
 * @example securityKeyUse({ enabled: true, rpId: 'localhost', origins: ['http://localhost:8080'] }, 'http://127.0.0.1:8080') // { kind: 'elsewhere', at: 'http://localhost:8080' }
 */
export function securityKeyUse(keys: EnabledMethods['securityKeys'], origin: string): SecurityKeyUse {
  if (!keys.enabled) return { kind: 'off' };
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return { kind: 'off' };
  }
  const isAddress = IPV4.test(host) || host.startsWith('[');
  const underRpId = host === keys.rpId || host.endsWith(`.${keys.rpId}`);
  if (!isAddress && underRpId && keys.origins.includes(origin)) return { kind: 'here' };
  const at = keys.origins[0];
  return at === undefined ? { kind: 'off' } : { kind: 'elsewhere', at };
}

/**
 * The sign-in tabs to show, in order: password always, the others when switched on (security
 * key only where it can run).
 * @example signInMethods({ ...PASSWORD_ONLY, smsOtp: true }, 'http://127.0.0.1:8080') // ['password', 'sms']
 */
export function signInMethods(methods: EnabledMethods, origin: string): SignInMethod[] {
  return [
    'password',
    ...(methods.magicLink ? ['magic-link' as const] : []),
    ...(methods.smsOtp ? ['sms' as const] : []),
    ...(securityKeyUse(methods.securityKeys, origin).kind === 'here' ? ['security-key' as const] : []),
  ];
}

/** Validates the answer's shape; anything else reads as PASSWORD_ONLY. */
export function readEnabledMethods(value: unknown): EnabledMethods {
  if (typeof value !== 'object' || value === null) return PASSWORD_ONLY;
  const answer = value as Partial<Record<keyof EnabledMethods, unknown>>;
  const keys = answer.securityKeys as Partial<EnabledMethods['securityKeys']> | undefined;
  const emailPassword = answer.emailPassword as Partial<EnabledMethods['emailPassword']> | undefined;
  const delivery = answer.delivery as Partial<EnabledMethods['delivery']> | undefined;
  return {
    emailPassword: { signIn: true, signUp: emailPassword?.signUp !== false },
    magicLink: answer.magicLink === true,
    emailOtp: answer.emailOtp === true,
    smsOtp: answer.smsOtp === true,
    anonymous: answer.anonymous === true,
    totp: answer.totp !== false,
    personalAccessTokens: answer.personalAccessTokens !== false,
    securityKeys: {
      enabled: keys?.enabled === true,
      rpId: typeof keys?.rpId === 'string' ? keys.rpId : '',
      origins: Array.isArray(keys?.origins) ? keys.origins.filter((origin): origin is string => typeof origin === 'string') : [],
    },
    oauthProviders: Array.isArray(answer.oauthProviders) ? answer.oauthProviders.filter((id): id is string => typeof id === 'string') : [],
    delivery: { email: delivery?.email === 'outbox' ? 'outbox' : 'smtp', sms: 'outbox' },
  };
}

let request: Promise<EnabledMethods> | undefined;

/** One request per page load: the server's switches do not change while it runs. */
export function loadEnabledMethods(): Promise<EnabledMethods> {
  request ??= authCall<unknown>('/methods', { method: 'GET' }).then((answer) => {
    if (answer.ok) return readEnabledMethods(answer.value);
    request = undefined; // Not remembered: the next screen asks again.
    return PASSWORD_ONLY;
  });
  return request;
}

/** The enabled methods for a screen: PASSWORD_ONLY until the answer arrives. */
export function useEnabledMethods(): EnabledMethods {
  const [methods, setMethods] = useState<EnabledMethods>(PASSWORD_ONLY);
  useEffect(() => {
    let current = true;
    void loadEnabledMethods().then((loaded) => {
      if (current) setMethods(loaded);
    });
    return () => {
      current = false;
    };
  }, []);
  return methods;
}
