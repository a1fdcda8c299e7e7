import { describe, expect, it } from 'vitest';
import { CURRENT_PASSWORD_REQUIRED, emailChangeIssue, passwordChangeIssue } from './credential-forms';

// The account forms send the current password (the auth service needs it): they refuse to send
// without it, and check the new values the way the server will.

describe('passwordChangeIssue', () => {
  const good = { currentPassword: 'the old passphrase', newPassword: 'a new passphrase', repeat: 'a new passphrase' };

  it('lets a complete form through', () => {
    expect(passwordChangeIssue(good)).toBeUndefined();
  });

  it('names the field of each problem, the current password first', () => {
    expect(passwordChangeIssue({ ...good, currentPassword: '' })).toEqual({ field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED });
    expect(passwordChangeIssue({ ...good, newPassword: 'short', repeat: 'short' })).toEqual({ field: 'newPassword', message: 'Password is incorrectly formatted' });
    expect(passwordChangeIssue({ ...good, newPassword: good.currentPassword, repeat: good.currentPassword })?.field).toBe('newPassword');
    expect(passwordChangeIssue({ ...good, repeat: 'a new passphrasE' })).toEqual({ field: 'repeat', message: 'The passwords differ' });
  });
});

describe('emailChangeIssue', () => {
  it('needs a valid address and the current password', () => {
    expect(emailChangeIssue({ newEmail: ' new@example.in ', currentPassword: 'the old passphrase' })).toBeUndefined();
    expect(emailChangeIssue({ newEmail: 'new@', currentPassword: 'x' })).toEqual({ field: 'newEmail', message: 'Email is incorrectly formatted' });
    expect(emailChangeIssue({ newEmail: 'new@example.in', currentPassword: '' })).toEqual({ field: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED });
  });
});
