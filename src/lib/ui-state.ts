import { createStore } from './create-store.ts';

/**
 * The spec's client state (global loading flag, isMobile, transient messages). It is a module
 * store rather than React context so that code which outlives the component that started it (the
 * sign-out run, a redirect timer) can raise a message or the overlay without being handed a callback.
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
  /** When the user last ordered a tool (ms): requests tables then bring their newest row into view. */
  newRequestAt: number | null;
}

const initialState: UiState = {
  loading: false,
  loadingCoverage: 'full',
  isMobile: false,
  messages: [],
  newRequestAt: null,
};

const store = createStore<UiState>(initialState);
let nextKey = 0;

/** The current state, for code outside React and for tests. */
export function getUiState(): UiState {
  return store.get();
}

/**
 * Shows or hides the full-screen loading overlay. `coverage` 'full' hides the page completely
 * (first load, where a half-drawn page would flash); anything else leaves it half visible.
 */
export function setLoading(flag: boolean, coverage: LoadingCoverage = 'full'): void {
  const state = store.get();
  if (state.loading === flag && (!flag || state.loadingCoverage === coverage)) return;
  store.set(flag ? { loading: true, loadingCoverage: coverage } : { loading: false });
}

export function setViewport(isMobile: boolean): void {
  if (store.get().isMobile === isMobile) return;
  store.set({ isMobile });
}

/** Queues a transient message and returns its key (for removing it early). */
export function showMessage(message: string, severity: MessageSeverity = 'success', duration?: number): string {
  nextKey += 1;
  const key = `msg-${nextKey}`;
  const entry: UiMessage = duration === undefined ? { key, severity, message } : { key, severity, message, duration };
  store.set({ messages: [...store.get().messages, entry] });
  return key;
}

export function removeMessage(key: string): void {
  const { messages } = store.get();
  if (!messages.some((m) => m.key === key)) return;
  store.set({ messages: messages.filter((m) => m.key !== key) });
}

/**
 * The user has just ordered a tool: the requests tables on screen now, and the dashboard's when the page goes
 * there, scroll their newest row into view, above the message bar that confirms the order.
 */
export function revealNewRequest(): void {
  store.set({ newRequestAt: Date.now() });
}

// Each hook selects a primitive or a reference that only changes on a real update, so
// subscribers do not re-render for unrelated changes.

export function useLoading(): { loading: boolean; coverage: LoadingCoverage } {
  const loading = store.useSelect((s) => s.loading);
  const coverage = store.useSelect((s) => s.loadingCoverage);
  return { loading, coverage };
}

export function useIsMobile(): boolean {
  return store.useSelect((s) => s.isMobile);
}

export function useMessages(): readonly UiMessage[] {
  return store.useSelect((s) => s.messages);
}

export function useNewRequestAt(): number | null {
  return store.useSelect((s) => s.newRequestAt);
}
