import { FirebaseError } from 'firebase/app';
import { describe, expect, it } from 'vitest';
import { NetworkError } from './api-errors.ts';
import { authErrorCode, authErrorTexts, describeAuthError, isDeadResetLink, sentence } from './auth-errors.ts';

/** What the SDK throws: the code, and its own message that must never reach the screen. */
const firebase = (code: string) => new FirebaseError(code, `Firebase: Error (${code}).`);

/** Every code the app's calls of Firebase Auth can meet (sign-in, reset email, reset code, change password). */
const expected: [code: string, text: string][] = [
  ['auth/wrong-password', authErrorTexts.wrongCurrentPassword],
  ['auth/invalid-credential', authErrorTexts.wrongCurrentPassword],
  ['auth/invalid-login-credentials', authErrorTexts.wrongCurrentPassword],
  ['auth/invalid-password', authErrorTexts.wrongCurrentPassword],
  ['auth/user-not-found', authErrorTexts.noAccount],
  ['auth/invalid-email', authErrorTexts.invalidEmail],
  ['auth/missing-email', authErrorTexts.missingEmail],
  ['auth/missing-password', authErrorTexts.missingPassword],
  ['auth/user-disabled', authErrorTexts.accountDisabled],
  ['auth/too-many-requests', authErrorTexts.tooManyAttempts],
  ['auth/network-request-failed', authErrorTexts.network],
  ['auth/timeout', authErrorTexts.network],
  ['auth/expired-action-code', authErrorTexts.linkExpired],
  ['auth/invalid-action-code', authErrorTexts.linkExpired],
  ['auth/missing-action-code', authErrorTexts.linkInvalid],
  ['auth/argument-error', authErrorTexts.linkInvalid],
  ['auth/weak-password', authErrorTexts.weakPassword],
  ['auth/password-does-not-meet-requirements', authErrorTexts.passwordRules],
  ['auth/requires-recent-login', authErrorTexts.signInAgain],
  ['auth/user-token-expired', authErrorTexts.signInAgain],
  ['auth/invalid-user-token', authErrorTexts.signInAgain],
  ['auth/user-mismatch', authErrorTexts.otherAccount],
  ['auth/internal-error', authErrorTexts.unknown],
  ['auth/operation-not-allowed', authErrorTexts.unknown],
];

describe('describeAuthError', () => {
  it.each(expected)('%s → a human sentence, never the SDK text', (code, text) => {
    const described = describeAuthError(firebase(code));
    expect(described).toBe(text);
    expect(described).not.toMatch(/firebase|auth\//i);
  });

  it('reads the code from a re-wrapped error message too', () => {
    expect(describeAuthError(new Error('Firebase: Error (auth/wrong-password).'))).toBe(authErrorTexts.wrongCurrentPassword);
    expect(authErrorCode('Firebase: Error (auth/invalid-action-code).')).toBe('auth/invalid-action-code');
    expect(authErrorCode(new Error('no code here'))).toBeNull();
  });

  it('at sign-in a wrong password names neither field; on a reset link a vanished account means a dead link', () => {
    expect(describeAuthError(firebase('auth/wrong-password'), 'signIn')).toBe(authErrorTexts.wrongCredentials);
    expect(describeAuthError(firebase('auth/invalid-credential'), 'signIn')).toBe(authErrorTexts.wrongCredentials);
    expect(describeAuthError(firebase('auth/user-not-found'), 'resetCode')).toBe(authErrorTexts.linkExpired);
    expect(describeAuthError(firebase('auth/user-not-found'), 'resetEmail')).toBe(authErrorTexts.noAccount);
  });

  it('an unknown code, a raw Firebase text or a non-error falls back to the calm generic sentence', () => {
    expect(describeAuthError(firebase('auth/something-new'))).toBe(authErrorTexts.unknown);
    expect(describeAuthError(new Error('Firebase: something odd happened'))).toBe(authErrorTexts.unknown);
    expect(describeAuthError(undefined)).toBe(authErrorTexts.unknown);
  });

  it("keeps the app's own sentences and says what a lost connection means", () => {
    expect(describeAuthError(new Error('The new passwords do not match.'))).toBe('The new passwords do not match.');
    expect(describeAuthError(new NetworkError('Failed to fetch'))).toBe(authErrorTexts.network);
  });
});

describe('isDeadResetLink', () => {
  it('is true for the codes whose way on is a new link', () => {
    for (const code of ['auth/expired-action-code', 'auth/invalid-action-code', 'auth/missing-action-code', 'auth/user-not-found']) {
      expect(isDeadResetLink(firebase(code)), code).toBe(true);
    }
    expect(isDeadResetLink(firebase('auth/network-request-failed'))).toBe(false);
    expect(isDeadResetLink(firebase('auth/weak-password'))).toBe(false);
  });
});

describe('sentence', () => {
  it('capitalises the first letter only', () => {
    expect(sentence(authErrorTexts.linkExpired)).toBe('This link has expired or was already used.');
    expect(sentence('')).toBe('');
  });
});
