import { useSyncExternalStore } from 'react';

export interface Store<S> {
  get(): S;
  /** Replaces the state with a patched copy and tells every subscriber. */
  set(patch: Partial<S>): void;
  subscribe(listener: () => void): () => void;
  /**
   * A slice of the state as a hook. The selector must return a primitive or a reference the state keeps
   * (not a new object), or useSyncExternalStore would see a change on every read.
   */
  useSelect<T>(select: (state: S) => T): T;
}

/**
 * A module-level store for state that outlives components or is written outside React (the session, the
 * loading overlay and messages, the service worker, a running sign-out), read by components through
 * useSyncExternalStore.
 */
export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };

  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe,
    useSelect: (select) => useSyncExternalStore(subscribe, () => select(state), () => select(initial)),
  };
}
