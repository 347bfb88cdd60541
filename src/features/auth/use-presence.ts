import { useEffect } from 'react';
import { apiRequest } from '../../lib/api.ts';
import { getIdToken } from '../../lib/firebase.ts';

export type ActivityStatus = 'ACTIVE' | 'IN_ACTIVE';

/**
 * PATCH /api/user/active-status with keepalive, so it survives the page being closed.
 * Offline it is skipped: there is nobody to tell, and a queued marker would be stale on arrival.
 * `token` lets a page-leave send synchronously with a token read earlier.
 */
export async function sendActivityStatus(status: ActivityStatus, token?: string | null): Promise<void> {
  if (!navigator.onLine) return;
  const res = await apiRequest('/user/active-status', { method: 'PATCH', json: { status }, keepalive: true, token });
  if (!res.ok) throw new Error(`active-status answered ${res.status}`);
}

/** ID tokens last an hour; the cached one used on page-leave is renewed well before that. */
const TOKEN_REFRESH_MS = 10 * 60_000;

/** A navigation announced by beforeunload that has not taken the page away after this long did not happen. */
export const STAYED_AFTER_BEFOREUNLOAD_MS = 2_000;

/**
 * Presence (spec section 4): ACTIVE on sign-in and when the tab becomes visible, IN_ACTIVE when it is
 * hidden or the page is left. Errors are only logged (spec section 8).
 *
 * Leaving for another address in the same tab is marked on beforeunload, not only on pagehide: Chromium fires
 * pagehide in the old page only after the new one has committed, and when the old page's main thread is still busy
 * (right after sign-in, while the replica fills) its process can be torn down before the handler runs, so the
 * marker was never sent (the e2e test failed about one run in five). beforeunload runs before the navigation
 * starts, and the browser waits for it. Not every beforeunload leads away (a download, a cancelled navigation):
 * a page still here and visible shortly after says ACTIVE again.
 */
export function usePresence(uid: string): void {
  useEffect(() => {
    let last: ActivityStatus | null = null;
    // Kept fresh on every send: on page-leave there is no time to wait for the SDK before fetching.
    let token: string | null = null;
    let stayedTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshToken = () =>
      getIdToken()
        .then((t) => {
          token = t;
        })
        .catch(() => undefined);

    const send = (status: ActivityStatus, useCachedToken = false) => {
      // Hidden and pagehide both fire when a tab closes; one marker is enough.
      if (status === last) return;
      last = status;
      sendActivityStatus(status, useCachedToken && token ? token : undefined).catch((err) => console.error(`presence ${status} failed`, err));
      if (!useCachedToken) void refreshToken();
    };

    const onVisibility = () => {
      if (document.visibilityState === 'visible') send('ACTIVE');
      else send('IN_ACTIVE', true);
    };
    const onBeforeUnload = () => {
      send('IN_ACTIVE', true);
      clearTimeout(stayedTimer);
      // Only runs if the page is still here: a page that left (or sits frozen in the back/forward cache) runs no timers.
      stayedTimer = setTimeout(() => {
        if (document.visibilityState === 'visible') send('ACTIVE');
      }, STAYED_AFTER_BEFOREUNLOAD_MS);
    };
    const onPageHide = () => {
      clearTimeout(stayedTimer);
      send('IN_ACTIVE', true);
    };
    const onPageShow = (event: PageTransitionEvent) => {
      // Back from the back/forward cache: the page was "left", so it is active again.
      if (event.persisted) send('ACTIVE');
    };

    send('ACTIVE');
    const tokenTimer = setInterval(() => void refreshToken(), TOKEN_REFRESH_MS);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      clearInterval(tokenTimer);
      clearTimeout(stayedTimer);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [uid]);
}
