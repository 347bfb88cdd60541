import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from './firebase.ts';

// Firebase as the session sees it: the test decides when (and whether) it answers.
const firebase = vi.hoisted(() => ({ answer: null as ((user: SessionUser | null) => void) | null }));
vi.mock('./firebase.ts', () => ({
  onSessionChange: (listener: (user: SessionUser | null) => void) => {
    firebase.answer = listener;
    return () => undefined;
  },
}));

const hintKey = 'portal:maybe-signed-in';
const ada: SessionUser = { uid: 'u-ada', email: 'ada@example.com', displayName: null };

async function freshSession() {
  vi.resetModules();
  firebase.answer = null;
  return import('./session.ts');
}

/** Whether the promise has settled after the pending microtasks and a macrotask ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 0));
  return done;
}

describe('startSession', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('does not wait for Firebase on a device where nobody was signed in last time', async () => {
    const session = await freshSession();
    expect(await settled(session.startSession())).toBe(true);
    expect(session.getAuthState().isAuthenticated).toBe(false);
  });

  it('waits for Firebase where someone was signed in, then has the user', async () => {
    localStorage.setItem(hintKey, '1');
    const session = await freshSession();
    const start = session.startSession();
    expect(await settled(start)).toBe(false);
    firebase.answer!(ada);
    await start;
    expect(session.getAuthState()).toMatchObject({ status: 'signedIn', userId: 'u-ada', isAuthenticated: true });
  });

  it("keeps the hint in step with Firebase's answers", async () => {
    const session = await freshSession();
    await session.startSession();
    await vi.waitFor(() => expect(firebase.answer).not.toBeNull());
    firebase.answer!(ada);
    expect(localStorage.getItem(hintKey)).not.toBeNull();
    firebase.answer!(null);
    expect(localStorage.getItem(hintKey)).toBeNull();
    expect(session.getAuthState().status).toBe('signedOut');
  });

  it('a user Firebase restores after the first screen still reaches the auth state', async () => {
    const session = await freshSession();
    await session.startSession();
    await vi.waitFor(() => expect(firebase.answer).not.toBeNull());
    firebase.answer!(ada);
    expect(session.getAuthState().userId).toBe('u-ada');
  });
});
