import { initializeApp } from 'firebase/app';
import {
  type Auth,
  type User,
  EmailAuthProvider,
  browserLocalPersistence,
  confirmPasswordReset,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  onIdTokenChanged,
  reauthenticateWithCredential,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut as firebaseSignOut,
  updatePassword,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { readClientConfig } from './config.ts';

/** The one wrapper around the Firebase Auth SDK: everything else asks this module. */
let auth: Auth | null = null;

function getAuthInstance(): Auth {
  if (auth) return auth;
  const config = readClientConfig();
  const app = initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
  // IndexedDB persistence keeps the user signed in across reloads, offline too.
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (config.authEmulatorHost) connectAuthEmulator(auth, `http://${config.authEmulatorHost}`, { disableWarnings: true });
  return auth;
}

export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
}

function toSessionUser(user: User): SessionUser {
  return { uid: user.uid, email: user.email, displayName: user.displayName };
}

export function onSessionChange(listener: (user: SessionUser | null) => void): () => void {
  return onIdTokenChanged(getAuthInstance(), (user) => listener(user ? toSessionUser(user) : null));
}

export async function signIn(email: string, password: string): Promise<SessionUser> {
  const cred = await signInWithEmailAndPassword(getAuthInstance(), email, password);
  return toSessionUser(cred.user);
}

export function signOut(): Promise<void> {
  return firebaseSignOut(getAuthInstance());
}

/**
 * A valid ID token for the current user (refreshed by the SDK when near expiry), or null if signed out. Waits for
 * Firebase's first answer: the screens may draw before it (session.ts), a request never goes without it.
 */
export async function getIdToken(forceRefresh = false): Promise<string | null> {
  await getAuthInstance().authStateReady();
  const user = getAuthInstance().currentUser;
  return user ? user.getIdToken(forceRefresh) : null;
}

export function currentUser(): SessionUser | null {
  const user = getAuthInstance().currentUser;
  return user ? toSessionUser(user) : null;
}

export function sendResetEmail(email: string): Promise<void> {
  return sendPasswordResetEmail(getAuthInstance(), email);
}

export function verifyResetCode(code: string): Promise<string> {
  return verifyPasswordResetCode(getAuthInstance(), code);
}

export function confirmReset(code: string, newPassword: string): Promise<void> {
  return confirmPasswordReset(getAuthInstance(), code, newPassword);
}

/** Re-verifies the current password, then sets the new one (Settings → Security). */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await getAuthInstance().authStateReady();
  const user = getAuthInstance().currentUser;
  if (!user || !user.email) throw new Error('You are not signed in.');
  await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, currentPassword));
  await updatePassword(user, newPassword);
}

/**
 * When this device's sign-in happened (the ID token's `auth_time`, in seconds): what names the session on the
 * server. Offline with an expired token a fresh one cannot be had, so the last token the SDK kept is read instead;
 * every token refreshed from one sign-in carries the same auth_time.
 */
export async function sessionAuthTime(): Promise<number | null> {
  await getAuthInstance().authStateReady();
  const user = getAuthInstance().currentUser;
  if (!user) return null;
  try {
    return Math.floor(Date.parse((await user.getIdTokenResult()).authTime) / 1000);
  } catch {
    const kept = (user.toJSON() as { stsTokenManager?: { accessToken?: unknown } }).stsTokenManager?.accessToken;
    return typeof kept === 'string' ? authTimeOf(kept) : null;
  }
}

function authTimeOf(token: string): number | null {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(payload)) as { auth_time?: unknown };
    return typeof claims.auth_time === 'number' ? claims.auth_time : null;
  } catch {
    return null;
  }
}
