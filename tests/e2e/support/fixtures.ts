// Helpers shared by the e2e tests. This worker's stack is the one global-setup.ts started on its ports (stack.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ROOT } from '../../../scripts/emulator.ts';
import { DEMO_TOTP_SECRETS } from '../../../server/seed/seed-data.ts';
import { E2E_AUTH_PORT, E2E_PORT, stackIndex } from './stack.ts';

export const PROJECT_ID = 'demo-portal';
export const baseUrl = () => `http://localhost:${E2E_PORT + stackIndex()}`;
export const authHost = () => `127.0.0.1:${E2E_AUTH_PORT + stackIndex()}`;

export const DEMO = {
  admin: { email: 'admin@demo.test', password: 'Admin#2026' },
  client: { email: 'client@demo.test', password: 'Client#2026' },
  lead: { email: 'lead@demo.test', password: 'Lead#2026' },
  staff: { email: 'staff@demo.test', password: 'Staff#2026' },
} as const;

/**
 * Signs in through the real login form and waits until the app has navigated away from /login. A staff or admin
 * account whose authenticator secret the fixture knows (the demo accounts, or one a test enrolled with
 * `enrolAuthenticator`) then passes the staff gate with a code computed here, and comes back to where the sign-in
 * landed: every staff page works as it did before the second factor.
 */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|#|$)/, { timeout: 20_000 });
  if (totpSecrets.has(email.toLowerCase())) await passStaffGate(page, email);
}

// ---- the second factor (docs/api.md, Security) ----

/** Authenticator secrets the fixture knows, by email: the seeded demo ones and those tests enrolled. */
const totpSecrets = new Map<string, string>([
  [DEMO.staff.email, DEMO_TOTP_SECRETS.staff],
  [DEMO.admin.email, DEMO_TOTP_SECRETS.admin],
]);

const STEP_MS = 30_000;

/** The current code of a secret for a 30-second step. */
export function totpCode(secret: string, step = Math.floor(Date.now() / STEP_MS)): string {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS + 1 });
}

/**
 * The current code of `email`'s authenticator, usable again: the server accepts each 30-second step once per account,
 * and the specs sign the same accounts in many times a minute, so the test stack (TEST_FAULTS) is asked to forget the
 * step the account used last. The security spec shows the once-only rule itself.
 */
export async function nextTotpCode(email: string): Promise<string> {
  const secret = totpSecrets.get(email.toLowerCase());
  if (!secret) throw new Error(`no authenticator secret known for ${email}`);
  const res = await fetch(`${baseUrl()}/api/__test/forget-totp-step`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  if (!res.ok) throw new Error(`forget-totp-step: ${res.status} ${await res.text()}`);
  return totpCode(secret);
}

export const gateCard = (page: Page) => page.getByTestId('second-factor-gate');

/** Neither the gate's screens nor its check are on the page: the workspace shows. */
async function gateOpen(page: Page): Promise<boolean> {
  return !(await gateCard(page).isVisible()) && !(await page.getByTestId('second-factor-checking').isVisible());
}

/**
 * Verifies this page's session with a code from `email`'s authenticator on the staff gate: at /staff when the sign-in
 * landed elsewhere (an admin who is also a client lands on the dashboard), then back there.
 */
export async function passStaffGate(page: Page, email: string): Promise<void> {
  const landed = page.url();
  if (!new URL(landed).pathname.startsWith('/staff')) await page.goto('/staff');
  const field = page.getByLabel('6-digit code from your authenticator app');
  await expect(field).toBeVisible({ timeout: 20_000 });
  await field.fill(await nextTotpCode(email));
  await page.getByRole('button', { name: 'Verify code', exact: true }).click();
  await expect.poll(() => gateOpen(page), { timeout: 20_000 }).toBe(true);
  if (page.url() !== landed) await page.goto(landed);
}

/**
 * Enrols an authenticator app on the gate's enrolment screen (an account a test made staff), saves the recovery
 * codes, and remembers the secret so `signIn` and `idToken` pass the gate for it later. Returns the secret and codes.
 */
export async function enrolAuthenticator(page: Page, email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  await expect(page.getByRole('heading', { name: 'Protect your staff account' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Use an authenticator app instead' }).click();
  await page.getByRole('button', { name: 'Set up the authenticator app' }).click();
  const secret = await page.getByLabel('Or type this secret into the app').inputValue();
  totpSecrets.set(email.toLowerCase(), secret);
  await page.getByLabel('2. Enter the 6-digit code the app shows').fill(await nextTotpCode(email));
  await page.getByRole('button', { name: 'Turn on the authenticator app' }).click();
  const codes = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allInnerTexts();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect.poll(() => gateOpen(page), { timeout: 20_000 }).toBe(true);
  return { secret, recoveryCodes };
}

export interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string; // PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN, …
}

/**
 * The newest out-of-band code (password reset, email verification…) the Auth emulator "sent" to
 * `email`, i.e. what the user would click in the email. Undefined when there is none.
 */
export async function readOobCodes(email: string, requestType?: string): Promise<OobCode | undefined> {
  const res = await fetch(`http://${authHost()}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
  if (!res.ok) throw new Error(`oobCodes: HTTP ${res.status}`);
  const body = (await res.json()) as { oobCodes?: OobCode[] };
  const mine = (body.oobCodes ?? []).filter(
    (c) => c.email.toLowerCase() === email.toLowerCase() && (!requestType || c.requestType === requestType),
  );
  return mine.at(-1); // the emulator lists codes in the order they were issued
}

/** Full-page screenshot at tests/output/screenshots/NAME.png (for the review of screens, not for assertions). */
export async function shot(page: Page, name: string): Promise<string> {
  const dir = join(ROOT, 'tests', 'output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Creates an account directly in the Auth emulator (no app-side profile). Returns its uid and an ID token from a
 * sign-in: the emulator dates a sign-up's own token a moment before the account's "valid since", so across a second's
 * turn the server would refuse it as revoked (server/test-helper.ts, signUp).
 */
export async function createEmulatorUser(email: string, password: string): Promise<{ uid: string; idToken: string }> {
  const call = async (method: 'signUp' | 'signInWithPassword') => {
    const res = await fetch(`http://${authHost()}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=fake-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    });
    const body = (await res.json()) as { localId?: string; idToken?: string; error?: { message: string } };
    if (!res.ok || !body.localId || !body.idToken) {
      throw new Error(`${method} of ${email} in the Auth emulator failed: ${body.error?.message ?? `HTTP ${res.status}`}`);
    }
    return { uid: body.localId, idToken: body.idToken };
  };
  await call('signUp');
  return call('signInWithPassword');
}

// Tiny but real files: the server checks the content, not the name.
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 800 };

/** A fresh browser context (its own storage, so its own signed-in user) at desktop width. */
export async function openContext(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  return context.newPage();
}

/**
 * The same screen at desktop and phone width, from the top (a full-page capture of a scrolled page draws
 * the fixed bars in the middle), for the review of screens. `noSidewaysScroll` also checks the phone page fits.
 */
export async function shotBoth(page: Page, name: string, { noSidewaysScroll = false } = {}): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(300);
  await page.evaluate(() => window.scrollTo(0, 0));
  if (noSidewaysScroll) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/**
 * An ID token of an existing emulator account, for API calls made beside the browser. For an account whose
 * authenticator the fixture knows (demo staff and admin), one session per worker verified with a code once and kept:
 * its token is refreshed from the same sign-in (same session) when it nears its hour, so staff calls pass the second
 * factor without spending a code each time.
 */
export async function idToken(email: string, password: string): Promise<string> {
  const key = email.toLowerCase();
  if (!totpSecrets.has(key)) return (await passwordSignIn(email, password)).idToken;
  const kept = verifiedSessions.get(key);
  if (kept && Date.now() - kept.at < 45 * 60_000) return kept.idToken;
  const session = kept ? await refreshed(kept.refreshToken) : await passwordSignIn(email, password);
  if (!kept) await verifyApiSession(email, session.idToken);
  verifiedSessions.set(key, { ...session, at: Date.now() });
  return session.idToken;
}

const verifiedSessions = new Map<string, { idToken: string; refreshToken: string; at: number }>();

async function passwordSignIn(email: string, password: string): Promise<{ idToken: string; refreshToken: string }> {
  const res = await fetch(`http://${authHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; refreshToken?: string };
  if (!body.idToken || !body.refreshToken) throw new Error(`sign-in of ${email} failed`);
  return { idToken: body.idToken, refreshToken: body.refreshToken };
}

async function refreshed(refreshToken: string): Promise<{ idToken: string; refreshToken: string }> {
  const res = await fetch(`http://${authHost()}/securetoken.googleapis.com/v1/token?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  const body = (await res.json()) as { id_token?: string; refresh_token?: string };
  if (!body.id_token || !body.refresh_token) throw new Error('token refresh failed');
  return { idToken: body.id_token, refreshToken: body.refresh_token };
}

/** POST /api/security/verify with the current code. */
export async function verifyApiSession(email: string, token: string): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/security/verify`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'totp', code: await nextTotpCode(email) }),
  });
  if (!res.ok) throw new Error(`second factor of ${email} refused: ${res.status} ${await res.text()}`);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The `data` of a successful API answer; a failed one fails the test with the answer's text. */
export async function dataOf<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** An approved client with a Track Master request, priced at $450, paid $300 and In Progress: made through the API. */
export async function clientWithPaidRequest(request: APIRequestContext, email: string, password: string) {
  const { idToken: clientToken, uid } = await createEmulatorUser(email, password);
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staffToken = await idToken(DEMO.staff.email, DEMO.staff.password);
  const staff = { headers: bearer(staffToken) };
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, staff));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { ...staff, data: { version: profile.client.version } }));
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'He asked for money.' };
  const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
  const path = `/api/staff/requests/${created.id}`;
  let version = 1;
  const step = async (suffix: string, data: Record<string, unknown>) => {
    const answer = await dataOf<{ version?: number; request?: { version: number } }>(await request.post(`${path}${suffix}`, { ...staff, data: { ...data, version } }));
    version = answer.request?.version ?? answer.version ?? version + 1;
  };
  await step('/transition', { to: 'Waiting for actions', totalAmount: 450 });
  await step('/payments', { amount: 300, method: 'CARD', paidAt: '2026-11-20', reference: 'E2E' });
  await step('/transition', { to: 'In Progress' });
  return { uid, requestId: created.id, staffToken };
}
