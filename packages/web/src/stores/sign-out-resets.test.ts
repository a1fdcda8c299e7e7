import { describe, expect, it } from 'vitest';
import { resetOnSignOut, runSignOutResets } from './sign-out-resets';

describe('sign-out resets', () => {
  it('runs every registered reset once per sign-out, and not after unregistering', () => {
    const calls: string[] = [];
    const stopA = resetOnSignOut(() => calls.push('a'));
    resetOnSignOut(() => calls.push('b'));
    runSignOutResets();
    expect(calls).toEqual(['a', 'b']);
    stopA();
    runSignOutResets();
    expect(calls).toEqual(['a', 'b', 'b']);
  });
});
