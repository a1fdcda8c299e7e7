import { describe, expect, it } from 'vitest';
import { CURRENT_PASSWORD_REQUIRED } from './credential-forms';
import { enrolmentProofIssue, PROOF_NEEDED, proofBody, WRONG_CURRENT_PASSWORD } from './enrolment-proof';

// The auth service now asks a session signed in over 5 minutes ago for the current password before
// it adds a security key or switches two-factor sign-in on. The sections read its answer: the
// password field appears with a message under it; a wrong password is said there too.

const required = {
  status: 400,
  error: 'invalid-request',
  message: "currentPassword: is required to add a security key, two-factor sign-in or a linked provider: the account's current password, unless you signed in or elevated (POST /elevate/webauthn or /elevate/totp) in the last 5 minutes",
};

describe('enrolmentProofIssue', () => {
  it('asks for the password when the server says it is required', () => {
    expect(enrolmentProofIssue(required)).toEqual({ field: 'currentPassword', message: PROOF_NEEDED });
  });

  it('asks for the password when the server wants it before creating an access token', () => {
    const forPat = {
      status: 400,
      error: 'invalid-request',
      message: "currentPassword: is required to create a personal access token: the account's current password, unless you signed in or elevated (POST /elevate/webauthn or /elevate/totp) in the last 5 minutes",
    };
    expect(enrolmentProofIssue(forPat)).toEqual({ field: 'currentPassword', message: PROOF_NEEDED });
  });

  it('says a refused password is not right', () => {
    expect(enrolmentProofIssue({ status: 401, error: 'invalid-email-password', message: "currentPassword: is not the account's password" }))
      .toEqual({ field: 'currentPassword', message: WRONG_CURRENT_PASSWORD });
  });

  it('leaves other refusals to the section', () => {
    expect(enrolmentProofIssue({ status: 401, error: 'invalid-totp', message: 'Invalid TOTP code' })).toBeUndefined();
    expect(enrolmentProofIssue({ status: 401, error: 'elevated-claim-required', message: 'Elevated claim required' })).toBeUndefined();
    expect(enrolmentProofIssue({ status: 400, error: 'invalid-request', message: 'code: is required' })).toBeUndefined();
  });
});

describe('proofBody', () => {
  it('sends nothing until the field is shown (a fresh session enrols without it)', () => {
    expect(proofBody({ shown: false, currentPassword: '' })).toEqual({});
  });

  it('sends the password once the field is shown, and refuses to send an empty one', () => {
    expect(proofBody({ shown: true, currentPassword: 'the passphrase' })).toEqual({ currentPassword: 'the passphrase' });
    expect(proofBody({ shown: true, currentPassword: '' })).toEqual({ field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED });
  });
});
