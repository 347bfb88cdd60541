import { FirebaseError } from 'firebase/app';
import { NetworkError } from './api-errors.ts';

/**
 * Firebase Auth's errors in words a frightened client can act on. The SDK's own message
 * ("Firebase: Error (auth/wrong-password).") never reaches the screen: each code the app can meet
 * (sign-in, reset email, reset code, change password) has a sentence here, and unknown ones fall back to a
 * calm generic sentence rather than the raw text.
 *
 * The sentences start in lower case: the spec's formats put them after a prefix ("An Error occurred: ")
 * or show them alone, and `sentence()` capitalises them for the second case.
 */
export const authErrorTexts = {
  wrongCurrentPassword: 'the current password is not correct.',
  wrongCredentials: 'the email or the password is not correct.',
  noAccount: 'there is no account with this email address.',
  invalidEmail: 'this email address is not valid.',
  missingEmail: 'please enter your email address.',
  missingPassword: 'please enter your password.',
  accountDisabled: 'this account has been disabled. Please contact support.',
  tooManyAttempts: 'too many attempts. For your safety, please wait a few minutes and try again.',
  network: 'this device could not reach the server. Please check your connection and try again.',
  linkExpired: 'this link has expired or was already used.',
  linkInvalid: 'this link is not complete or not valid. Please open the newest link from your email.',
  weakPassword: 'this password is too weak. Please choose a stronger one.',
  passwordRules: 'this password does not meet the password rules. Please check the list above.',
  signInAgain: 'for your safety, please sign out, sign in again and then retry.',
  otherAccount: 'this password belongs to another account.',
  notSignedIn: 'you are not signed in. Please sign in again.',
  unknown: 'something went wrong on our side. Please try again later.',
} as const;

/** Every code the app's calls of the identity provider can meet, and what it means for the user. */
const byCode: Record<string, string> = {
  'auth/wrong-password': authErrorTexts.wrongCurrentPassword,
  'auth/invalid-credential': authErrorTexts.wrongCurrentPassword,
  'auth/invalid-login-credentials': authErrorTexts.wrongCurrentPassword,
  'auth/invalid-password': authErrorTexts.wrongCurrentPassword,
  'auth/user-not-found': authErrorTexts.noAccount,
  'auth/invalid-email': authErrorTexts.invalidEmail,
  'auth/missing-email': authErrorTexts.missingEmail,
  'auth/missing-password': authErrorTexts.missingPassword,
  'auth/user-disabled': authErrorTexts.accountDisabled,
  'auth/too-many-requests': authErrorTexts.tooManyAttempts,
  'auth/network-request-failed': authErrorTexts.network,
  'auth/timeout': authErrorTexts.network,
  'auth/expired-action-code': authErrorTexts.linkExpired,
  'auth/invalid-action-code': authErrorTexts.linkExpired,
  'auth/missing-action-code': authErrorTexts.linkInvalid,
  'auth/argument-error': authErrorTexts.linkInvalid,
  'auth/weak-password': authErrorTexts.weakPassword,
  'auth/password-does-not-meet-requirements': authErrorTexts.passwordRules,
  'auth/requires-recent-login': authErrorTexts.signInAgain,
  'auth/user-token-expired': authErrorTexts.signInAgain,
  'auth/invalid-user-token': authErrorTexts.signInAgain,
  'auth/user-mismatch': authErrorTexts.otherAccount,
  'auth/internal-error': authErrorTexts.unknown,
  'auth/operation-not-allowed': authErrorTexts.unknown,
};

/** Where the error happened: a wrong password at sign-in names neither field, at a password change it is the current one. */
export type AuthErrorContext = 'signIn' | 'changePassword' | 'resetCode' | 'resetEmail';

/** Firebase's code of an error, also from the "(auth/…)" in its message when the error was re-wrapped. */
export function authErrorCode(err: unknown): string | null {
  if (err instanceof FirebaseError) return err.code;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return /\((auth\/[a-z-]+)\)/.exec(message)?.[1] ?? null;
}

/** The human sentence (lower case first, see `authErrorTexts`) for any error a Firebase Auth call threw. */
export function describeAuthError(err: unknown, context: AuthErrorContext = 'changePassword'): string {
  if (err instanceof NetworkError) return authErrorTexts.network;
  const code = authErrorCode(err);
  if (code === null) {
    // Our own errors (e.g. "The new passwords do not match.") are already written for people.
    return err instanceof Error && err.message && !err.message.startsWith('Firebase:') ? err.message : authErrorTexts.unknown;
  }
  const text = byCode[code] ?? authErrorTexts.unknown;
  if (text === authErrorTexts.wrongCurrentPassword && context === 'signIn') return authErrorTexts.wrongCredentials;
  // A user-not-found on a reset link means the account went away after the email: the link cannot work.
  if (code === 'auth/user-not-found' && context === 'resetCode') return authErrorTexts.linkExpired;
  return text;
}

/** Whether the error says the emailed link cannot be used any more (the way on is a new link). */
export function isDeadResetLink(err: unknown): boolean {
  const code = authErrorCode(err);
  return code === 'auth/expired-action-code' || code === 'auth/invalid-action-code' || code === 'auth/missing-action-code' || code === 'auth/argument-error' || code === 'auth/user-not-found';
}

/** "this link…" → "This link…", for places that show the sentence alone. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
