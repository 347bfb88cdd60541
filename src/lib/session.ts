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
 * A note on this device that someone was signed in at the last answer from Firebase. Only a hint: it decides
 * whether the first screen waits for Firebase, never who is signed in.
 */
const sessionHintKey = 'portal:maybe-signed-in';

/** Whether someone was signed in on this device at Firebase's last answer (a hint only, see above). */
export function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(sessionHintKey) !== null;
  } catch {
    return true; // storage refused: wait for Firebase, as if someone might be signed in
  }
}

function writeHint(signedIn: boolean) {
  try {
    if (signedIn) localStorage.setItem(sessionHintKey, '1');
    else localStorage.removeItem(sessionHintKey);
  } catch {
    // storage refused: every start then waits for Firebase
  }
}

/**
 * Starts Firebase Auth (its SDK loads here, not with the first screen) and resolves once the first screen can be
 * drawn: when Firebase has said who is signed in (restored from IndexedDB, so offline too), or at once on a device
 * where nobody was signed in last time, so the sign-in screen does not wait for the SDK. Should Firebase then
 * report a user after all, the routes move on from the sign-in screen (main.tsx re-runs them on every change).
 */
export function startSession(): Promise<void> {
  if (!started) {
    started = true;
    void import('./firebase.ts').then(({ onSessionChange }) =>
      onSessionChange((user) => {
        writeHint(user !== null);
        store.set(toAuthState(user));
        resolveReady();
      }),
    );
  }
  return maybeSignedIn() ? ready : Promise.resolve();
}

export function getAuthState(): AuthState {
  return store.get();
}

/** The whole state: a new object on every change, so the selector can return it as it is. */
export function useAuth(): AuthState {
  return store.useSelect((s) => s);
}
