// Helpers for the offline-first tests: API calls as a demo account, the fault switches and the
// database counts of server/plugins/faults.ts (test-only, TEST_FAULTS=1).
import type { Page } from '@playwright/test';
import { baseUrl, idToken } from './fixtures.ts';

export interface Counts {
  contact: { total: number; distinct: number };
  refunds: { total: number; distinct: number };
  requests: { total: number; distinct: number };
}

/** Rows whose subject / reason / request details contain `prefix`, counted in the database. */
export async function dbCounts(prefix: string): Promise<Counts> {
  const res = await fetch(`${baseUrl()}/api/__test/counts?prefix=${encodeURIComponent(prefix)}`);
  if (!res.ok) throw new Error(`counts: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Counts }).data;
}

export async function setFaults(faults: { dropAfterCommitRate?: number; fail5xxRate?: number; pathPrefix?: string }): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/__test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

/** A tiny client for the portal API, signed in as `account` (for staff, a session that passed the second factor). */
export async function apiAs(account: { email: string; password: string }) {
  const token = await idToken(account.email, account.password);
  const localId = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string }).sub;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    uid: localId,
    async post(path: string, body: unknown): Promise<unknown> {
      const r = await fetch(`${baseUrl()}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
      return r.json();
    },
  };
}

/** Waits until the service worker controls the page, so an offline reload is served from its cache. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
}
