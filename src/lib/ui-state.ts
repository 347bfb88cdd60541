import { useSyncExternalStore } from 'react';

/**
 * The spec's client state (global loading flag, isMobile, transient messages). It is a module
 * store rather than React context so that non-React code (the outbox sender, sync, service-worker
 * glue) can raise a message or the overlay without being handed a callback.
 */

export type MessageSeverity = 'success' | 'error' | 'warning' | 'info';
export type LoadingCoverage = 'full' | 'half';

export interface UiMessage {
  key: string;
  severity: MessageSeverity;
  message: string;
  /** Milliseconds before the message bar hides it; the bar falls back to the spec's 3500. */
  duration?: number;
}

export interface UiState {
  loading: boolean;
  loadingCoverage: LoadingCoverage;
  isMobile: boolean;
  /** Oldest first: the message bar shows one at a time, in the order they were raised. */
  messages: readonly UiMessage[];
}

const initialState: UiState = {
  loading: false,
  loadingCoverage: 'full',
  isMobile: false,
  messages: [],
};

let state: UiState = initialState;
const listeners = new Set<() => void>();
let nextKey = 0;

function update(patch: Partial<UiState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): UiState {
  return state;
}

/** The current state, for code outside React and for tests. */
export function getUiState(): UiState {
  return state;
}

/**
 * Shows or hides the full-screen loading overlay. `coverage` 'full' hides the page completely
 * (first load, where a half-drawn page would flash); anything else leaves it half visible.
 */
export function setLoading(flag: boolean, coverage: LoadingCoverage = 'full'): void {
  if (state.loading === flag && (!flag || state.loadingCoverage === coverage)) return;
  update(flag ? { loading: true, loadingCoverage: coverage } : { loading: false });
}

export function setViewport(isMobile: boolean): void {
  if (state.isMobile === isMobile) return;
  update({ isMobile });
}

/** Queues a transient message and returns its key (for removing it early). */
export function showMessage(message: string, severity: MessageSeverity = 'success', duration?: number): string {
  nextKey += 1;
  const key = `msg-${nextKey}`;
  const entry: UiMessage = duration === undefined ? { key, severity, message } : { key, severity, message, duration };
  update({ messages: [...state.messages, entry] });
  return key;
}

export function removeMessage(key: string): void {
  if (!state.messages.some((m) => m.key === key)) return;
  update({ messages: state.messages.filter((m) => m.key !== key) });
}

// Each hook selects a primitive or a reference that only changes on a real update, so
// useSyncExternalStore does not re-render subscribers for unrelated changes.

export function useLoading(): { loading: boolean; coverage: LoadingCoverage } {
  const loading = useSyncExternalStore(subscribe, () => getSnapshot().loading, () => initialState.loading);
  const coverage = useSyncExternalStore(
    subscribe,
    () => getSnapshot().loadingCoverage,
    () => initialState.loadingCoverage,
  );
  return { loading, coverage };
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => getSnapshot().isMobile, () => initialState.isMobile);
}

export function useMessages(): readonly UiMessage[] {
  return useSyncExternalStore(subscribe, () => getSnapshot().messages, () => initialState.messages);
}
