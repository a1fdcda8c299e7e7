// The current-password field of the security-key, two-factor and access-token sections, as
// state: hidden until the auth service asks for fresh proof (enrolment-proof.ts), then sent with
// the next attempt.
import { useState } from 'react';
import type { AuthErrorPayload } from '../../auth/auth-types';
import { enrolmentProofIssue, proofBody } from './enrolment-proof';

export interface EnrolmentProof {
  /** Whether the field is on screen (the server asked for the password). */
  readonly shown: boolean;
  readonly currentPassword: string;
  /** The message under the field. */
  readonly error: string | undefined;
  setCurrentPassword(value: string): void;
  /** The fields to send, or undefined after saying under the field why nothing can be sent yet. */
  body(): { currentPassword?: string } | undefined;
  /** Shows the field with the reason when the refusal was about the proof; false otherwise. */
  refused(error: AuthErrorPayload): boolean;
  /** Hides and empties the field (after a success). */
  reset(): void;
}

export function useEnrolmentProof(): EnrolmentProof {
  const [shown, setShown] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  return {
    shown,
    currentPassword,
    error,
    setCurrentPassword(value) {
      setCurrentPassword(value);
      setError(undefined);
    },
    body() {
      const body = proofBody({ shown, currentPassword });
      if ('field' in body) {
        setError(body.message);
        return undefined;
      }
      return body;
    },
    refused(refusal) {
      const issue = enrolmentProofIssue(refusal);
      if (!issue) return false;
      setShown(true);
      setError(issue.message);
      return true;
    },
    reset() {
      setShown(false);
      setCurrentPassword('');
      setError(undefined);
    },
  };
}
