import { createStore } from './create-store.ts';
import type { SessionUser } from './firebase.ts';

/** Auth state as the spec names it: currentUser, isAuthenticated, userId. 'unknown' until Firebase answers. */
export interface AuthState {
  status: 'unknown' | 'signedIn' | 'signedOut';
  currentUser: SessionUser | null;
  isAuthenticated: boolean;
  userId: string | null;
}

const store = createStore<AuthState>({ status: 'unknown', currentUser: null, isAuthenticated: false, userId: null });
let started = false;
let resolveReady: () => void;
const ready = new Promise<void>((r) => (resolveReady = r));

function toAuthState(user: SessionUser | null): AuthState {
  return user
    ? { status: 'signedIn', currentUser: user, isAuthenticated: true, userId: user.uid }
    : { status: 'signedOut', currentUser: null, isAuthenticated: false, userId: null };
}

/**
 * A note on this device of who was signed in at the last answer from Firebase (their uid). Only a hint: it lets
 * the first screen draw from the replica before Firebase answers, and Firebase's answer always wins. A hint of
 * '1' (written by earlier versions) says someone was signed in, not who.
 */
const sessionHintKey = 'portal:maybe-signed-in';

/** The hint as stored: null when nobody was signed in, '' when storage is refused (anyone might be). */
function readHint(): string | null {
  try {
    return localStorage.getItem(sessionHintKey);
  } catch {
    return '';
  }
}

/** Whether someone was signed in on this device at Firebase's last answer (a hint only, see above). */
export function maybeSignedIn(): boolean {
  return readHint() !== null;
}

/** The uid the hint names, if it names one. */
function hintedUid(): string | null {
  const hint = readHint();
  return hint && hint !== '1' ? hint : null;
}

function writeHint(user: SessionUser | null) {
  try {
    if (user) localStorage.setItem(sessionHintKey, user.uid);
    else localStorage.removeItem(sessionHintKey);
  } catch {
    // storage refused: every start then waits for Firebase
  }
}

/**
 * Starts Firebase Auth (its SDK loads here, not with the first screen) and resolves once the first screen can be
 * drawn. Where the hint names who was signed in last time, at once, as that user: Firebase checks a restored
 * session with Google before it answers, a round trip that on a poor connection can last until the SDK gives up,
 * and the signed-in screens draw from the replica meanwhile (every request still waits for Firebase's token, see
 * firebase.ts). Where nobody was signed in, at once, signed out, so the sign-in screen does not wait for the SDK.
 * Otherwise (an old hint, storage refused) when Firebase has answered. Whatever Firebase then answers replaces the
 * state, and the routes follow (main.tsx re-runs them on every change): a session Firebase ended goes to /login.
 */
export function startSession(): Promise<void> {
  if (!started) {
    started = true;
    void import('./firebase.ts').then(({ onSessionChange }) =>
      onSessionChange((user) => {
        writeHint(user);
        store.set(toAuthState(user));
        resolveReady();
      }),
    );
  }
  const uid = hintedUid();
  if (uid && store.get().status === 'unknown') store.set(toAuthState({ uid, email: null, displayName: null }));
  return maybeSignedIn() && !uid ? ready : Promise.resolve();
}

export function getAuthState(): AuthState {
  return store.get();
}

/** The whole state: a new object on every change, so the selector can return it as it is. */
export function useAuth(): AuthState {
  return store.useSelect((s) => s);
}
