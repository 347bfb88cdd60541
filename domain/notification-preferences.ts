import { z } from 'zod';

/**
 * What reaches a person outside the app, as they chose (Settings → Notifications). One row per user, synced like the
 * read marker. The spec's two switches decide which updates reach them at all; the channels decide how; staff have
 * a switch per staff event. Changing one field never touches the others, so two devices toggling offline both win.
 */
export const NotificationPreferences = z.object({
  userId: z.string(),
  /** Updates for everyone (an admin's general notification). */
  generalUpdates: z.boolean(),
  /** Updates about the user's own case: replies, prices, payments, reports, refunds, notifications to them. */
  personalUpdates: z.boolean(),
  /** Email for the updates the switches allow; essential mail (payments) goes regardless. */
  email: z.boolean(),
  /** Push to the devices the user subscribed (each device subscribes itself). */
  push: z.boolean(),
  /** A push's text on a lock screen: neutral unless the user asks for the details. */
  lockScreenDetails: z.boolean(),
  /** Staff only: a new lead awaiting approval. */
  staffLeads: z.boolean(),
  /** Staff only: a new request to price. */
  staffRequests: z.boolean(),
  /** Staff only: a client's new message or reply awaiting an answer. */
  staffMessages: z.boolean(),
  /** Staff only: a new refund request. */
  staffRefunds: z.boolean(),
  updatedAt: z.string(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const PREFERENCE_FIELDS = [
  'generalUpdates',
  'personalUpdates',
  'email',
  'push',
  'lockScreenDetails',
  'staffLeads',
  'staffRequests',
  'staffMessages',
  'staffRefunds',
] as const satisfies readonly (keyof NotificationPreferences)[];
export type PreferenceField = (typeof PREFERENCE_FIELDS)[number];

/** The switches only staff have: a client sending one is refused. */
export const STAFF_PREFERENCE_FIELDS = ['staffLeads', 'staffRequests', 'staffMessages', 'staffRefunds'] as const satisfies readonly PreferenceField[];

/** A new account's choices: everything on, the lock screen neutral. */
export const DEFAULT_PREFERENCES: Record<PreferenceField, boolean> = {
  generalUpdates: true,
  personalUpdates: true,
  email: true,
  push: true,
  lockScreenDetails: false,
  staffLeads: true,
  staffRequests: true,
  staffMessages: true,
  staffRefunds: true,
};

/** PUT /api/user/notification-preferences: only the switches that changed. */
export const NotificationPreferencesBody = z
  .strictObject(Object.fromEntries(PREFERENCE_FIELDS.map((f) => [f, z.boolean().optional()])) as Record<PreferenceField, z.ZodOptional<z.ZodBoolean>>)
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'name at least one switch to change');
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBody>;
