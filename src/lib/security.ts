import { z } from 'zod';
import { AccountDisabledAnswer, EnrolmentAnswer, PasskeyItem, RecoveryCodes, SecurityStatus, SessionItem, TotpSetup, type VerifyCodeBody } from '../../domain/security.ts';
import { apiGet, apiRequest, readData } from './api.ts';
import type { PortalDb } from './db.ts';
import { sessionAuthTime } from './firebase.ts';

/**
 * The second factor and the sessions, as the app calls them (docs/api.md, Security). Every call is online only; the
 * screens run them through useOnlineAction. Nothing here is kept on the device except the mark that this session
 * verified its factor (see `rememberVerified`); secrets and recovery codes live in component state only.
 */

const Anything = z.unknown();
/** Answers that may carry the recovery codes of a first enrolment. */
const MaybeCodes = EnrolmentAnswer;

async function send<T extends z.ZodType>(path: string, method: 'POST' | 'PUT' | 'DELETE', json: unknown, schema: T): Promise<z.infer<T>> {
  return readData(await apiRequest(path, { method, json }), schema);
}

/** A call answered 204 (removals, sign-outs): no body to read, only the refusal if any. */
async function sendNoContent(path: string, method: 'POST' | 'DELETE'): Promise<void> {
  const res = await apiRequest(path, { method, json: method === 'POST' ? {} : undefined });
  if (!res.ok) await readData(res, Anything);
}

export function fetchSecurityStatus(): Promise<SecurityStatus> {
  return apiGet('/security', SecurityStatus);
}

export async function verifyCode(body: VerifyCodeBody): Promise<void> {
  await send('/security/verify', 'POST', body, Anything);
}

/** Lazily loaded: the WebAuthn helper is only needed where a passkey is used. */
const webauthn = () => import('@simplewebauthn/browser');

export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser's own refusal (the person closed the prompt, or no passkey here): not a server error. */
export function isPasskeyCancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError' || ('code' in err && err.code === 'ERROR_CEREMONY_ABORTED'));
}

/** Asks the browser for one of the account's passkeys and has the server check it: the session's second factor. */
export async function verifyWithPasskey(): Promise<void> {
  const optionsJSON = (await send('/security/passkeys/verify/options', 'POST', {}, Anything)) as Parameters<Awaited<ReturnType<typeof webauthn>>['startAuthentication']>[0]['optionsJSON'];
  const { startAuthentication } = await webauthn();
  const response = await startAuthentication({ optionsJSON });
  await send('/security/passkeys/verify', 'POST', { response }, Anything);
}

/** Creates a passkey on this device and registers it; a first factor's answer carries the recovery codes (shown once). */
export async function addPasskey(name: string): Promise<{ recoveryCodes?: string[] }> {
  const optionsJSON = (await send('/security/passkeys/options', 'POST', {}, Anything)) as Parameters<Awaited<ReturnType<typeof webauthn>>['startRegistration']>[0]['optionsJSON'];
  const { startRegistration } = await webauthn();
  const response = await startRegistration({ optionsJSON });
  return send('/security/passkeys', 'POST', { name, response }, MaybeCodes);
}

export async function removePasskey(id: string): Promise<void> {
  await sendNoContent(`/security/passkeys/${encodeURIComponent(id)}`, 'DELETE');
}

export function startTotpSetup(): Promise<TotpSetup> {
  return send('/security/totp', 'POST', {}, TotpSetup);
}

export function confirmTotp(code: string): Promise<{ recoveryCodes?: string[] }> {
  return send('/security/totp/confirm', 'POST', { code }, MaybeCodes);
}

export async function removeTotp(): Promise<void> {
  await sendNoContent('/security/totp', 'DELETE');
}

export async function newRecoveryCodes(): Promise<string[]> {
  return (await send('/security/recovery-codes', 'POST', {}, RecoveryCodes)).recoveryCodes;
}

export function fetchSessions(): Promise<SessionItem[]> {
  return apiGet('/security/sessions', z.array(SessionItem));
}

export async function signOutSession(id: string): Promise<void> {
  await sendNoContent(`/security/sessions/${encodeURIComponent(id)}/sign-out`, 'POST');
}

export async function signOutOtherSessions(): Promise<void> {
  await send('/security/sessions/sign-out-others', 'POST', {}, Anything);
}

/** Every device, this one too: the caller signs this device out as a session the server ended (session-signals.ts). */
export async function signOutEverywhere(): Promise<void> {
  await sendNoContent('/security/sessions/sign-out-everywhere', 'POST');
}

/** PUT /api/staff/users/:uid/disabled (admins, step-up): the account's sessions end at their next request. */
export function setAccountDisabled(uid: string, disabled: boolean): Promise<z.infer<typeof AccountDisabledAnswer>> {
  return send(`/staff/users/${encodeURIComponent(uid)}/disabled`, 'PUT', { disabled }, AccountDisabledAnswer);
}

export type { PasskeyItem, SecurityStatus, SessionItem };
export type TotpSetupAnswer = TotpSetup;

// ---- this session's verification, remembered on the device for offline reading ----

/** The replica's meta row naming the session (its sign-in time) that verified its second factor. */
export const VERIFIED_SESSION_KEY = 'secondFactorSession';

/**
 * Notes in the replica that this session verified its second factor. Offline the server cannot be asked, and a
 * staff member who verified in this session keeps reading the workspace's copies; a new sign-in (another auth
 * time) does not match, and sign-out deletes the replica with the mark.
 */
export async function rememberVerified(db: PortalDb): Promise<void> {
  const authTime = await sessionAuthTime();
  if (authTime !== null) await db.meta.put({ key: VERIFIED_SESSION_KEY, value: authTime });
}

export async function forgetVerified(db: PortalDb): Promise<void> {
  await db.meta.delete(VERIFIED_SESSION_KEY);
}

/** Whether this very session verified its second factor, as far as the device knows. */
export async function verifiedInThisSession(db: PortalDb): Promise<boolean> {
  const [row, authTime] = await Promise.all([db.meta.get(VERIFIED_SESSION_KEY), sessionAuthTime()]);
  return authTime !== null && row?.value === authTime;
}
