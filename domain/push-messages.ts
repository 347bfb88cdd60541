import { z } from 'zod';

/**
 * The messages between the service worker (sw/push.ts) and the app's pages about Web Push, named once for both.
 */

/** A notification was clicked: the page opens `url` (a path of this app) with its router. */
export const NavigateMessage = z.object({ type: z.literal('navigate'), url: z.string().startsWith('/') });
export type NavigateMessage = z.infer<typeof NavigateMessage>;

/** The push service replaced the subscription: a page (it holds the user's token) gives the new one to the server. */
export const SubscriptionChangedMessage = z.object({ type: z.literal('push-subscription-changed') });

/**
 * Runs the click of the newest notification shown under `tag`, as a click would. A headless browser cannot click
 * a notification, so the end-to-end test clicks through this; it does only what the user's click does.
 */
export const ClickTestMessage = z.object({ type: z.literal('notification-click-test'), tag: z.string() });
