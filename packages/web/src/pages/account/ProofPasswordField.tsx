// The current-password field a section shows when the auth service asks for fresh proof before
// enrolling a security key or two-factor sign-in, or creating an access token
// (use-enrolment-proof.ts); nothing before that.
import { PasswordInput } from '@mantine/core';
import { NO_PASSWORD_HINT } from './enrolment-proof';
import type { EnrolmentProof } from './use-enrolment-proof';

export function ProofPasswordField({ proof, testId, disabled }: { readonly proof: EnrolmentProof; readonly testId: string; readonly disabled: boolean }) {
  if (!proof.shown) return null;
  return (
    <PasswordInput
      label="Current password"
      autoComplete="current-password"
      maw={320}
      value={proof.currentPassword}
      description={NO_PASSWORD_HINT}
      error={proof.error}
      disabled={disabled}
      data-testid={testId}
      onChange={(event) => proof.setCurrentPassword(event.currentTarget.value)}
    />
  );
}
