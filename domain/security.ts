import { z } from 'zod';

/**
 * Second factors, step-up and sessions: the API's shapes and rules, shared by the server and the app
 * (docs/api.md, Security). The second factor is the portal's own, kept by the server after the Firebase
 * sign-in. A session is one Firebase sign-in on one device: the user and the token's `auth_time`, which
 * every token refreshed from that sign-in keeps.
 */

/** 403: a staff or admin route called by a session that has not verified a second factor. */
export const SECOND_FACTOR_REQUIRED = 'SECOND_FACTOR_REQUIRED';
/** 403: a sensitive action whose session verified its second factor longer ago than STEP_UP_SECONDS. */
export const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';
/** 401: the session was signed out (from another device, by all-devices, or the account was disabled). */
export const SESSION_ENDED = 'SESSION_ENDED';
/** 429: too many wrong codes or assertions for this account. */
export const SECOND_FACTOR_LOCKED = 'SECOND_FACTOR_LOCKED';

export const STEP_UP_SECONDS = 5 * 60;
/** Wrong second-factor attempts allowed per account in the window, counted across instances (in the database). */
export const SECOND_FACTOR_ATTEMPTS = 5;
export const SECOND_FACTOR_WINDOW_MINUTES = 15;
export const RECOVERY_CODE_COUNT = 10;
/** Passkeys one account may register. */
export const MAX_PASSKEYS = 10;

/** Why a session ended, as the 401's `details.reason` and the login page's sentence. */
export const SessionEndReason = z.enum(['signed-out-elsewhere', 'signed-out-everywhere', 'account-disabled']);
export type SessionEndReason = z.infer<typeof SessionEndReason>;

export const SESSION_END_TEXTS: Record<SessionEndReason, string> = {
  'signed-out-elsewhere': 'You were signed out of this device from another device.',
  'signed-out-everywhere': 'You were signed out of all devices.',
  'account-disabled': 'Your account has been disabled. Contact support if you think this is a mistake.',
};

/** A six-digit code from an authenticator app; spaces as some apps show it ("123 456") are allowed. */
export const TotpCode = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

/** A recovery code as shown once: 10 letters and digits in two groups ("k7p2m-x9q4t"); case and dash do not matter. */
export const RecoveryCode = z
  .string()
  .trim()
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, 'Enter one of your recovery codes, like k7p2m-x9q4t'));

/** POST /api/security/verify: a code as the second factor of this session (TOTP or a recovery code). */
export const VerifyCodeBody = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('totp'), code: TotpCode }),
  z.strictObject({ method: z.literal('recovery'), code: RecoveryCode }),
]);
export type VerifyCodeBody = z.infer<typeof VerifyCodeBody>;

/** POST /api/security/totp/confirm: the first code of a new authenticator, proving it was set up. */
export const ConfirmTotpBody = z.strictObject({ code: TotpCode });

/** POST /api/security/passkeys: a WebAuthn registration response (@simplewebauthn/browser's JSON) and a name. */
export const RegisterPasskeyBody = z.strictObject({
  name: z.string().trim().min(1, 'Name this passkey').max(60, 'At most 60 characters'),
  response: z.record(z.string(), z.unknown()),
});

/** POST /api/security/passkeys/verify: a WebAuthn authentication response. */
export const VerifyPasskeyBody = z.strictObject({ response: z.record(z.string(), z.unknown()) });

export const PasskeyItem = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type PasskeyItem = z.infer<typeof PasskeyItem>;

/** GET /api/security: what this account has and what this session has proved. Never a secret. */
export const SecurityStatus = z.object({
  /** Staff and admins must verify a second factor in every session before any staff or admin route. */
  required: z.boolean(),
  /** This session verified a second factor; when (ISO), for the step-up window. */
  verifiedAt: z.string().nullable(),
  passkeys: z.array(PasskeyItem),
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type SecurityStatus = z.infer<typeof SecurityStatus>;

/** POST /api/security/totp: a new authenticator's secret, shown once to be scanned or typed; pending until confirmed. */
export const TotpSetup = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetup = z.infer<typeof TotpSetup>;

/** Answer of a factor's first enrolment and of POST /api/security/recovery-codes: shown once, stored hashed. */
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

/** GET /api/security/sessions: the account's signed-in devices, newest first. */
export const SessionItem = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  /** "Lagos, NG" from the offline geo-IP, or null. */
  place: z.string().nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof SessionItem>;

/**
 * Answer of POST /api/security/totp/confirm and POST /api/security/passkeys: the passkey registered (for a passkey),
 * and, when this was the account's first factor, its recovery codes, shown once. The session counts as verified.
 */
export const EnrolmentAnswer = z.object({
  passkey: PasskeyItem.optional(),
  recoveryCodes: z.array(z.string()).optional(),
});
export type EnrolmentAnswer = z.infer<typeof EnrolmentAnswer>;

/** Answer of POST /api/security/verify and POST /api/security/passkeys/verify: when this session verified (ISO). */
export const VerifiedAnswer = z.object({ verifiedAt: z.string(), recoveryCodesLeft: z.number().int() });
export type VerifiedAnswer = z.infer<typeof VerifiedAnswer>;

/** PUT /api/staff/users/:uid/disabled (admins, step-up, never oneself). */
export const DisableAccountBody = z.strictObject({ disabled: z.boolean() });
export const AccountDisabledAnswer = z.object({ uid: z.string(), disabled: z.boolean() });

/** 400 codes of the second-factor routes (besides VALIDATION). */
export const WRONG_CODE = 'WRONG_CODE';
export const CODE_ALREADY_USED = 'CODE_ALREADY_USED';
/** 409: the account must keep a factor (staff and admins), and this is its last one. */
export const LAST_FACTOR = 'LAST_FACTOR';
