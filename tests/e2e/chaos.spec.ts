// Chaos test: 200 contact messages sent through the real Contact Us page by a client whose
// connection toggles at random, while the server drops some answers after commit, "crashes" after
// some commits (nothing after the handler runs, so the Idempotency-Key is never settled
// afterwards, and the connection is cut) and fails some requests with 5xx, one forced token expiry,
// and page reloads in between. Then a database check prints `lost=N duplicated=N` and fails unless
// both are 0. It stops by itself: every loop is bounded.
//
// A crashed request does not leave its key 'running' (which would answer the retries 409
// IDEMPOTENCY_IN_PROGRESS for the 2-minute stale-claim window): POST /api/contact marks the key done
// with its answer inside the transaction that stores the message (settleInTransaction,
// docs/decisions/001-delta-sync-and-idempotency.md, "Exactly once across crashes"), so the outbox's
// retry is replayed the first answer at once and stores nothing.
import { expect, test } from '@playwright/test';
import { baseUrl, createEmulatorUser, signIn } from './support/fixtures.ts';
import { dbCounts, setFaults, waitForServiceWorker } from './support/offline.ts';
import { countRows } from '../support/replica-probe.ts';

const COMMANDS = 200;

interface Injected {
  fail5xx: number;
  dropAfterCommit: number;
  crashAfterCommit: number;
}

/** Running totals of the faults the server injected (server/plugins/faults.ts); this test prints its own share. */
async function injectedFaults(): Promise<Injected> {
  const res = await fetch(`${baseUrl()}/api/__test/faults`);
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { injected: Injected } }).data.injected;
}

/** A small seeded PRNG (mulberry32), so a failing run can be replayed with CHAOS_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('chaos: 200 commands over a flaky connection arrive exactly once', async ({ page, context }) => {
  test.setTimeout(600_000);
  const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
  const random = prng(seed);
  const stamp = `chaos${seed}x${Date.now().toString(36)}`;
  const email = `${stamp}@e2e.example`;
  const { uid } = await createEmulatorUser(email, 'Secret#123');
  console.log(`chaos seed=${seed} marker=${stamp}`);

  await signIn(page, email, 'Secret#123');
  await waitForServiceWorker(page);
  const injectedBefore = await injectedFaults();
  const mix: Parameters<typeof setFaults>[0] & { crashAfterCommitRate: number } = {
    dropAfterCommitRate: 0.15,
    crashAfterCommitRate: 0.15,
    fail5xxRate: 0.15,
    pathPrefix: '/api/contact',
  };
  await setFaults(mix);

  let offline = false;
  let reloads = 0;
  let toggles = 0;
  const expireAt = Math.floor(COMMANDS * (0.3 + random() * 0.4));
  await page.goto('/contact-us');
  try {
    for (let i = 0; i < COMMANDS; i++) {
      const roll = random();
      if (roll < 0.08) {
        offline = !offline;
        toggles++;
        await context.setOffline(offline);
      } else if (roll < 0.11) {
        reloads++;
        await page.reload();
      }
      if (i === expireAt) {
        const res = await fetch(`${baseUrl()}/api/__test/expire-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
        expect(res.status).toBe(200);
        // Tokens are dated in whole seconds: a refresh within this second would look expired too.
        await page.waitForTimeout(1_100);
      }
      const subject = `${stamp}-${String(i).padStart(3, '0')}`;
      await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
      await page.getByRole('textbox', { name: 'Message' }).fill(`Chaos message ${i}`);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      // The form clears once the command is safely in the outbox.
      await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('', { timeout: 10_000 });
    }
  } finally {
    await context.setOffline(false);
    // Every rate left out is 0 (the server parses the whole set again): this turns the crashes off too.
    await setFaults({});
  }

  // Let the outbox drain (bounded), then check the database.
  const deadline = Date.now() + 240_000;
  let left = await countRows(page, uid, 'outbox');
  while (left > 0 && Date.now() < deadline) {
    await page.waitForTimeout(500);
    left = await countRows(page, uid, 'outbox');
  }
  const { contact } = await dbCounts(stamp);
  const lost = COMMANDS - contact.distinct;
  const duplicated = contact.total - contact.distinct;
  const injectedAfter = await injectedFaults();
  const injected = (kind: keyof Injected) => injectedAfter[kind] - injectedBefore[kind];
  console.log(`toggles=${toggles} reloads=${reloads} token_expired_at=${expireAt} unsent_left=${left}`);
  console.log(`injected: crashes=${injected('crashAfterCommit')} drops=${injected('dropAfterCommit')} 5xx=${injected('fail5xx')}`);
  console.log(`lost=${lost} duplicated=${duplicated}`);
  expect(left, 'commands still in the outbox').toBe(0);
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
});
