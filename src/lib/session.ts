import { useSyncExternalStore } from 'react';
import { type SessionUser, onSessionChange } from './firebase.ts';

/** Auth state as the spec names it: currentUser, isAuthenticated, userId. 'unknown' until Firebase answers. */
export interface AuthState {
  status: 'unknown' | 'signedIn' | 'signedOut';
  currentUser: SessionUser | null;
  isAuthenticated: boolean;
  userId: string | null;
}

let state: AuthState = { status: 'unknown', currentUser: null, isAuthenticated: false, userId: null };
const listeners = new Set<() => void>();
let started = false;
let resolveReady: () => void;
const ready = new Promise<void>((r) => (resolveReady = r));

export function startSession(): Promise<void> {
  if (!started) {
    started = true;
    onSessionChange((user) => {
      state = user
        ? { status: 'signedIn', currentUser: user, isAuthenticated: true, userId: user.uid }
        : { status: 'signedOut', currentUser: null, isAuthenticated: false, userId: null };
      resolveReady();
      for (const l of listeners) l();
    });
  }
  return ready;
}

export function getAuthState(): AuthState {
  return state;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, getAuthState);
}
