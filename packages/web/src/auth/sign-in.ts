// Every sign-in method of docs/PRODUCT.md section 4 as one request type, validated as docs/PRODUCT.md section 5 says,
// sent to the auth service; the answer becomes a SignInOutcome for the auth machine.
import { authApi, type ApiResult, type SessionOrMfa } from './auth-api';
import { clientError, isValidEmail, isValidMfaTicket, isValidPassword, isValidPhoneNumber, needsEmailVerification } from './auth-errors';
import type { AuthErrorPayload, AuthSession } from './auth-types';
import { requestCredential } from './webauthn';

export type SignInRequest =
  | { readonly method: 'password'; readonly email: string; readonly password: string }
  | { readonly method: 'anonymous' }
  | { readonly method: 'security-key'; readonly email: string; readonly securityKey: true }
  | { readonly method: 'mfa-totp'; readonly ticket: string | undefined; readonly otp: string }
  | { readonly method: 'pat'; readonly personalAccessToken: string }
  | { readonly method: 'passwordless-email'; readonly email: string; readonly redirectTo?: string }
  | { readonly method: 'passwordless-sms'; readonly phoneNumber: string }
  | { readonly method: 'passwordless-sms-otp'; readonly phoneNumber: string; readonly otp: string }
  | { readonly method: 'refresh-token'; readonly refreshToken: string };

export type SignInOutcome =
  | { readonly kind: 'session'; readonly session: AuthSession; readonly pat: boolean }
  | { readonly kind: 'mfa'; readonly ticket: string }
  /** A magic link went out by e-mail. */
  | { readonly kind: 'link-sent' }
  /** An SMS code went out: the next step is passwordless-sms-otp. */
  | { readonly kind: 'sms-sent'; readonly phoneNumber: string }
  | { readonly kind: 'needs-email-verification'; readonly error: AuthErrorPayload }
  | { readonly kind: 'error'; readonly error: AuthErrorPayload };

function fromSessionOrMfa(result: ApiResult<SessionOrMfa>, pat = false): SignInOutcome {
  if (!result.ok) return needsEmailVerification(result.error) ? { kind: 'needs-email-verification', error: result.error } : { kind: 'error', error: result.error };
  if (result.value.session) return { kind: 'session', session: result.value.session, pat };
  if (result.value.mfa?.ticket) return { kind: 'mfa', ticket: result.value.mfa.ticket };
  return { kind: 'error', error: { status: 1, error: 'internal-error', message: 'The auth service answered with neither a session nor an MFA ticket' } };
}

const failed = (code: Parameters<typeof clientError>[0]): SignInOutcome => ({ kind: 'error', error: clientError(code) });

/** Validates and sends one sign-in request. */
export async function signIn(request: SignInRequest): Promise<SignInOutcome> {
  switch (request.method) {
    case 'password':
      if (!isValidEmail(request.email)) return failed('invalid-email');
      if (!isValidPassword(request.password)) return failed('invalid-password');
      return fromSessionOrMfa(await authApi.signInEmailPassword({ email: request.email, password: request.password }));
    case 'anonymous':
      return fromSessionOrMfa(await authApi.signInAnonymous());
    case 'security-key': {
      if (request.securityKey !== true) return failed('invalid-sign-in-method');
      if (!isValidEmail(request.email)) return failed('invalid-email');
      const options = await authApi.signInWebauthn({ email: request.email });
      if (!options.ok) return { kind: 'error', error: options.error };
      const credential = await requestCredential(options.value);
      if (!credential.ok) return { kind: 'error', error: credential.error };
      return fromSessionOrMfa(await authApi.signInWebauthnVerify({ email: request.email, credential: credential.value }));
    }
    case 'mfa-totp':
      if (request.ticket === undefined || request.ticket === '') return failed('no-mfa-ticket');
      if (!isValidMfaTicket(request.ticket)) return failed('invalid-mfa-ticket');
      return fromSessionOrMfa(await authApi.signInMfaTotp({ ticket: request.ticket, otp: request.otp }));
    case 'pat':
      return fromSessionOrMfa(await authApi.signInPat({ personalAccessToken: request.personalAccessToken }), true);
    case 'passwordless-email': {
      if (!isValidEmail(request.email)) return failed('invalid-email');
      const sent = await authApi.signInPasswordlessEmail({ email: request.email, ...(request.redirectTo ? { options: { redirectTo: request.redirectTo } } : {}) });
      return sent.ok ? { kind: 'link-sent' } : { kind: 'error', error: sent.error };
    }
    case 'passwordless-sms': {
      if (!isValidPhoneNumber(request.phoneNumber)) return failed('invalid-phone-number');
      const sent = await authApi.signInPasswordlessSms({ phoneNumber: request.phoneNumber });
      return sent.ok ? { kind: 'sms-sent', phoneNumber: request.phoneNumber } : { kind: 'error', error: sent.error };
    }
    case 'passwordless-sms-otp':
      if (!isValidPhoneNumber(request.phoneNumber)) return failed('invalid-phone-number');
      return fromSessionOrMfa(await authApi.signInPasswordlessSmsOtp({ phoneNumber: request.phoneNumber, otp: request.otp }));
    case 'refresh-token': {
      if (!request.refreshToken) return failed('no-refresh-token');
      const refreshed = await authApi.refresh({ refreshToken: request.refreshToken });
      return refreshed.ok ? { kind: 'session', session: refreshed.value, pat: false } : { kind: 'error', error: refreshed.error };
    }
    default:
      return failed('invalid-sign-in-method');
  }
}
