import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { SoftwareAuthenticator, encodeCbor } from './support/software-authenticator';

// The test authenticator itself, checked against @simplewebauthn/server's verifiers before the
// HTTP tests rely on it.

const RELYING_PARTY = { origin: 'http://localhost:3000', rpId: 'localhost' };

describe('software authenticator', () => {
  it('encodes CBOR as RFC 8949 appendix A shows', () => {
    expect(encodeCbor(0).toString('hex')).toBe('00');
    expect(encodeCbor(24).toString('hex')).toBe('1818');
    expect(encodeCbor(1000).toString('hex')).toBe('1903e8');
    expect(encodeCbor(-1).toString('hex')).toBe('20');
    expect(encodeCbor(-100).toString('hex')).toBe('3863');
    expect(encodeCbor('IETF').toString('hex')).toBe('6449455446');
    expect(encodeCbor(new Uint8Array([1, 2, 3, 4])).toString('hex')).toBe('4401020304');
    expect(encodeCbor([1, [2, 3]]).toString('hex')).toBe('8201820203');
    expect(encodeCbor(new Map([['a', 1]])).toString('hex')).toBe('a1616101');
  });

  it('registers and then authenticates, with a rising counter', async () => {
    const authenticator = new SoftwareAuthenticator(RELYING_PARTY);
    const creation = await generateRegistrationOptions({ rpName: 'Vyuha', rpID: 'localhost', userName: 'asha@example.com', attestationType: 'none' });
    const registration = await verifyRegistrationResponse({
      response: authenticator.createCredential(creation) as unknown as RegistrationResponseJSON,
      expectedChallenge: creation.challenge,
      expectedOrigin: RELYING_PARTY.origin,
      expectedRPID: 'localhost',
    });
    expect(registration.verified).toBe(true);
    const credential = registration.registrationInfo?.credential;
    if (!credential) throw new Error('no credential');
    const request = await generateAuthenticationOptions({ rpID: 'localhost', allowCredentials: [{ id: credential.id }] });
    const assertion = await verifyAuthenticationResponse({
      response: authenticator.getAssertion(request) as unknown as AuthenticationResponseJSON,
      expectedChallenge: request.challenge,
      expectedOrigin: RELYING_PARTY.origin,
      expectedRPID: 'localhost',
      credential,
    });
    expect(assertion.verified).toBe(true);
    expect(assertion.authenticationInfo.newCounter).toBe(1);
  });

  it('is refused for another origin', async () => {
    const authenticator = new SoftwareAuthenticator({ origin: 'https://evil.example', rpId: 'localhost' });
    const creation = await generateRegistrationOptions({ rpName: 'Vyuha', rpID: 'localhost', userName: 'asha@example.com' });
    await expect(verifyRegistrationResponse({
      response: authenticator.createCredential(creation) as unknown as RegistrationResponseJSON,
      expectedChallenge: creation.challenge,
      expectedOrigin: RELYING_PARTY.origin,
      expectedRPID: 'localhost',
    })).rejects.toThrow(/origin/i);
  });
});
