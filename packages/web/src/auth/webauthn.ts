// Security keys in the browser: the auth service sends WebAuthn options as JSON, the browser's
// authenticator answers, and the credential goes back as JSON (base64url fields).
import type { AuthErrorPayload } from './auth-types';

type CredentialResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: AuthErrorPayload };

const cancelled = (message: string): CredentialResult => ({ ok: false, error: { status: 10, error: 'webauthn-cancelled', message } });

function supported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.get === 'function';
}

/** Asks the authenticator to sign in with options from `/signin/webauthn` or `/elevate/webauthn`. */
export async function requestCredential(options: PublicKeyCredentialRequestOptionsJSON): Promise<CredentialResult> {
  if (!supported()) return cancelled('This browser has no security-key support');
  try {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
    const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential | null;
    if (!credential) return cancelled('No security key answered');
    return { ok: true, value: credential.toJSON() };
  } catch (error) {
    return cancelled(`The security key did not sign in: ${(error as Error).message}`);
  }
}

/** Asks the authenticator to create a credential with options from `/signup/webauthn` or `/user/webauthn/add`. */
export async function createCredential(options: PublicKeyCredentialCreationOptionsJSON): Promise<CredentialResult> {
  if (!supported()) return cancelled('This browser has no security-key support');
  try {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
    const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
    if (!credential) return cancelled('No security key answered');
    return { ok: true, value: credential.toJSON() };
  } catch (error) {
    return cancelled(`The security key was not registered: ${(error as Error).message}`);
  }
}
