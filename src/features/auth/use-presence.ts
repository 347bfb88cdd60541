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

/**
 * Presence (spec section 4): ACTIVE on sign-in and when the tab becomes visible, IN_ACTIVE when it is
 * hidden or the page is left. Errors are only logged (spec section 8).
 */
export function usePresence(uid: string): void {
  useEffect(() => {
    let last: ActivityStatus | null = null;
    // Kept fresh on every send: on pagehide there is no time to wait for the SDK before fetching.
    let token: string | null = null;
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
    const onPageHide = () => send('IN_ACTIVE', true);
    const onPageShow = (event: PageTransitionEvent) => {
      // Back from the back/forward cache: the page was "left", so it is active again.
      if (event.persisted) send('ACTIVE');
    };

    send('ACTIVE');
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [uid]);
}
