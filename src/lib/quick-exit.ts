/**
 * Quick exit: for a client who may be watched. One click (or Escape twice) swaps the portal for a neutral
 * site and takes the portal out of the tab's Back history as far as a web page can.
 *
 * What browsers allow, honestly:
 * - A page cannot delete entries of the session history. `location.replace` swaps the *current* entry for
 *   the neutral site, so that entry is gone.
 * - Earlier portal entries of the same tab stay. So before leaving, the page first goes back to the tab's
 *   first portal entry (`history.go(-n)`, n read from the Navigation API where there is one, otherwise from
 *   the router's own entry index) and replaces *that* entry. Back from the neutral site then leaves the portal
 *   behind: it reaches whatever the tab showed before the portal (or nothing).
 * - The later portal entries become Forward entries, and portal entries from an earlier visit in the same tab
 *   (before another site) remain. Neither can be removed; instead this tab is marked (sessionStorage, which
 *   lives exactly as long as the tab) and a portal page reached by Back/Forward, fresh or from the back/forward
 *   cache, replaces itself with the neutral site before anything is drawn (`leaveIfTabWasExited`).
 *   Typing the address or following a link clears the mark, so the portal stays usable.
 * - What no page can touch: the browser's history list (chrome://history, Ctrl+H), the long-press Back menu
 *   of older entries, and other tabs. The "Leave quickly" help text says so.
 */

/** A calm, ordinary site to land on. */
export const neutralSiteUrl = 'https://www.bbc.com/weather';

const exitedKey = 'portal.quick-exit';

/** How close together two Escape presses must be to count as "twice". */
export const doubleEscapeMs = 1000;

interface NavigationLike {
  currentEntry: { index: number } | null;
}

/** How many entries back the tab's first portal entry is (0: this is it). */
export function portalEntriesBefore(win: Pick<Window, 'history'> & { navigation?: NavigationLike }): number {
  const fromNavigation = win.navigation?.currentEntry?.index;
  if (typeof fromNavigation === 'number' && fromNavigation >= 0) return fromNavigation;
  // TanStack's browser history numbers its entries from 0 in `history.state.__TSR_index`.
  const state: unknown = win.history.state;
  const fromRouter = state && typeof state === 'object' && '__TSR_index' in state ? Number(state.__TSR_index) : 0;
  return Number.isInteger(fromRouter) && fromRouter > 0 ? fromRouter : 0;
}

function markExited(): void {
  try {
    sessionStorage.setItem(exitedKey, '1');
  } catch {
    // Storage refused (private mode quirks): leaving still works, only the Forward guard is lost.
  }
}

function wasExited(): boolean {
  try {
    return sessionStorage.getItem(exitedKey) === '1';
  } catch {
    return false;
  }
}

/** Leaves now: hides the page at once, rewinds to the first portal entry, replaces it with the neutral site. */
export function leaveQuickly(): void {
  markExited();
  document.documentElement.style.visibility = 'hidden';
  document.title = '';
  let gone = false;
  const replace = () => {
    if (gone) return;
    gone = true;
    window.location.replace(neutralSiteUrl);
  };
  const back = portalEntriesBefore(window as unknown as Window & { navigation?: NavigationLike });
  if (back <= 0) {
    replace();
    return;
  }
  // Same document: popstate says we arrived. Another document: this page unloads and that one's
  // `leaveIfTabWasExited` replaces it. The timer covers a browser that ignores the traversal.
  window.addEventListener('popstate', replace, { once: true });
  setTimeout(replace, 500);
  window.history.go(-back);
}

/**
 * Run first at start-up: a portal page reached by Back/Forward in a tab that left quickly replaces itself
 * with the neutral site and returns true (render nothing). Any other arrival clears the mark.
 */
export function leaveIfTabWasExited(): boolean {
  window.addEventListener('pageshow', (event) => {
    // Restored from the back/forward cache: no script start-up ran.
    if (event.persisted && wasExited()) leaveQuickly();
  });
  if (!wasExited()) return false;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (navigation?.type === 'back_forward') {
    document.documentElement.style.visibility = 'hidden';
    window.location.replace(neutralSiteUrl);
    return true;
  }
  try {
    sessionStorage.removeItem(exitedKey);
  } catch {
    // nothing to clear
  }
  return false;
}

/** Whether an Escape press would close something (a dialog, drawer, popover, menu or list) rather than count. */
export function escapeClosesSomething(doc: Document = document): boolean {
  return doc.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"], [role="menu"][data-state="open"], [role="listbox"][data-state="open"]') !== null;
}

/**
 * Counts Escape presses: the second within `doubleEscapeMs` of the first calls `onDouble`. A press that
 * closes an open dialog (or menu…) does not count and starts the count again.
 */
export function createDoubleEscape(onDouble: () => void, now: () => number = () => performance.now(), closesSomething: () => boolean = escapeClosesSomething) {
  let last = Number.NEGATIVE_INFINITY;
  return (event: Pick<KeyboardEvent, 'key' | 'repeat'>) => {
    if (event.key !== 'Escape' || event.repeat) return;
    if (closesSomething()) {
      last = Number.NEGATIVE_INFINITY;
      return;
    }
    const at = now();
    if (at - last <= doubleEscapeMs) {
      last = Number.NEGATIVE_INFINITY;
      onDouble();
    } else {
      last = at;
    }
  };
}
