// Answers of Kite Connect v3's POST /session/token, in the shapes Kite sends them (values made
// up): the success body with its full user profile, and the TokenException Kite gives for a
// wrong checksum or a used request token (HTTP 403).

/** A success answer for `userId` carrying `accessToken`. */
export function kiteSessionSuccess(session: { accessToken: string; userId: string; apiKey: string }): string {
  return JSON.stringify({
    status: 'success',
    data: {
      user_type: 'individual',
      email: 'trader@example.com',
      user_name: 'Test Trader',
      user_shortname: 'Trader',
      broker: 'ZERODHA',
      exchanges: ['NSE', 'NFO', 'BFO', 'CDS', 'BSE', 'MCX', 'BCD', 'MF'],
      products: ['CNC', 'NRML', 'MIS', 'BO', 'CO'],
      order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
      avatar_url: null,
      user_id: session.userId,
      api_key: session.apiKey,
      access_token: session.accessToken,
      public_token: 'pUbLiCtOkEn0000',
      enctoken: 'eNcToKeN0000',
      refresh_token: '',
      silo: '',
      login_time: '2026-03-02 09:12:44',
      meta: { demat_consent: 'consent' },
    },
  });
}

/** Kite's answer to a wrong checksum (HTTP 403). */
export const KITE_INVALID_CHECKSUM = JSON.stringify({ status: 'error', message: 'Invalid `checksum`.', data: null, error_type: 'TokenException' });

/** Kite's answer to a used or expired request token (HTTP 403). */
export const KITE_TOKEN_INVALID = JSON.stringify({ status: 'error', message: 'Token is invalid or has expired.', data: null, error_type: 'TokenException' });
