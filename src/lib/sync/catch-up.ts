/**
 * Whether the replica is catching up: a pull has read a page after which more follow, and has not ended. While it
 * is, the screens' live queries refresh at most once every CATCH_UP_REFRESH_MS (src/lib/use-live-query.ts), and
 * every screen gets its latest result as soon as the pull ends. Each page's commit would otherwise re-render every
 * screen reading the requests (the dashboard's counts and table of 50 rows) while the next page is fetched and the
 * one after is written: on two cores those renders took the CPU the server's next page and the writes needed
 * (docs/decisions/017). A pull of one page, the usual one, never catches up.
 * Module state, like the live queries it paces: one signed-in user's pull runs at a time (the engine's single flight).
 */
export const CATCH_UP_REFRESH_MS = 1000;

let pulls = 0;
const endListeners = new Set<() => void>();

export function isCatchingUp(): boolean {
  return pulls > 0;
}

/**
 * Marks a catch-up until the returned end is called (once; more calls do nothing). Catch-ups may overlap: when the
 * last one ends, the results held meanwhile are handed on, whether its pull succeeded or failed.
 */
export function beginCatchUp(): () => void {
  pulls++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    pulls--;
    if (pulls === 0) for (const listener of [...endListeners]) listener();
  };
}

/** Calls `listener` whenever a catch-up ends; returns the unsubscribe. */
export function onCatchUpEnd(listener: () => void): () => void {
  endListeners.add(listener);
  return () => {
    endListeners.delete(listener);
  };
}
