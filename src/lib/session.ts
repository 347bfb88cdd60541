import { createStore } from './create-store.ts';
import { type SessionUser, onSessionChange } from './firebase.ts';

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

/** Resolves once Firebase has said who is signed in (restored from IndexedDB, so offline too). */
export function startSession(): Promise<void> {
  if (!started) {
    started = true;
    onSessionChange((user) => {
      store.set(toAuthState(user));
      resolveReady();
    });
  }
  return ready;
}

export function getAuthState(): AuthState {
  return store.get();
}

/** The whole state: a new object on every change, so the selector can return it as it is. */
export function useAuth(): AuthState {
  return store.useSelect((s) => s);
}
