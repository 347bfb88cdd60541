import { z } from 'zod';

/**
 * The search parameters of the screens a notification opens (the paths the server puts in a push or an email:
 * domain/notify-events.ts). Read with zod at the URL's boundary; a bad value is dropped, never an error page.
 */

const id = z.string().min(1).max(100).optional().catch(undefined);

/** /tool/$toolname?request=<id>: that request's details open over the tool's page. */
export const ToolSearch = z.object({ request: id });
export type ToolSearch = z.infer<typeof ToolSearch>;
export const readToolSearch = (search: Record<string, unknown>): ToolSearch => ToolSearch.parse(search);

/** /contact-requests?thread=<id>: that conversation opens. */
export const ContactRequestsSearch = z.object({ thread: id });
export type ContactRequestsSearch = z.infer<typeof ContactRequestsSearch>;
export const readContactRequestsSearch = (search: Record<string, unknown>): ContactRequestsSearch => ContactRequestsSearch.parse(search);

export const SETTINGS_TABS = ['profile', 'billings', 'notifications', 'security'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** /settings?tab=billings: that tab opens. */
export const SettingsSearch = z.object({ tab: z.enum(SETTINGS_TABS).optional().catch(undefined) });
export type SettingsSearch = z.infer<typeof SettingsSearch>;
export const readSettingsSearch = (search: Record<string, unknown>): SettingsSearch => SettingsSearch.parse(search);
