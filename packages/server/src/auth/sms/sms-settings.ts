// SMS sign-in settings (hasura-auth's AUTH_SMS_PASSWORDLESS_ENABLED, off by default as there).

export interface SmsSettings {
  readonly enabled: boolean;
  /** Lifetime of a code in seconds (AUTH_SMS_OTP_EXPIRES_IN, default 300). */
  readonly otpExpiresInSeconds: number;
}

/** Bad SMS configuration, naming the variable. */
export class SmsConfigError extends Error {
  override readonly name = 'SmsConfigError';
}

/** Reads the SMS settings. */
export function readSmsSettings(env: Readonly<Record<string, string | undefined>>): SmsSettings {
  return {
    enabled: readFlag(env, 'AUTH_SMS_PASSWORDLESS_ENABLED'),
    otpExpiresInSeconds: readSeconds(env, 'AUTH_SMS_OTP_EXPIRES_IN'),
  };
}

/** A true/false variable, false when unset. */
export function readFlag(env: Readonly<Record<string, string | undefined>>, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new SmsConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A code lifetime in seconds: 30 to 3600, 300 when unset. */
export function readSeconds(env: Readonly<Record<string, string | undefined>>, name: string): number {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return 300;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 30 || seconds > 3600) throw new SmsConfigError(`${name} must be a whole number of seconds from 30 to 3600, got "${raw}"`);
  return seconds;
}
