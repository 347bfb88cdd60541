// Helpers shared by the e2e tests. This worker's stack is the one global-setup.ts started on its ports (stack.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ROOT } from '../../../scripts/emulator.ts';
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

/** Signs in through the real login form and waits until the app has navigated away from /login. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|#|$)/, { timeout: 20_000 });
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

/** An ID token of an existing emulator account, for API calls made beside the browser. */
export async function idToken(email: string, password: string): Promise<string> {
  const res = await fetch(`http://${authHost()}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error(`sign-in of ${email} failed`);
  return body.idToken;
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
