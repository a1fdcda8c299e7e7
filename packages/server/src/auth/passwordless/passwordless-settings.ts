import { readFlag, readSeconds } from '../sms/sms-settings';

// Passwordless e-mail settings under hasura-auth's names (both off by default, as there).

export interface PasswordlessSettings {
  /** Magic link (AUTH_EMAIL_PASSWORDLESS_ENABLED). */
  readonly magicLinkEnabled: boolean;
  /** E-mailed 6-digit code (AUTH_OTP_EMAIL_ENABLED). */
  readonly emailOtpEnabled: boolean;
  /** Lifetime of an e-mailed code in seconds (AUTH_EMAIL_OTP_EXPIRES_IN, default 300). */
  readonly otpExpiresInSeconds: number;
}

/** Reads the passwordless e-mail settings. */
export function readPasswordlessSettings(env: Readonly<Record<string, string | undefined>>): PasswordlessSettings {
  return {
    magicLinkEnabled: readFlag(env, 'AUTH_EMAIL_PASSWORDLESS_ENABLED'),
    emailOtpEnabled: readFlag(env, 'AUTH_OTP_EMAIL_ENABLED'),
    otpExpiresInSeconds: readSeconds(env, 'AUTH_EMAIL_OTP_EXPIRES_IN'),
  };
}
