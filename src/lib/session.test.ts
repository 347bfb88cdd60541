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

/**
 * Whether the promise has settled after the pending microtasks and a macrotask ran. A zero-delay turn of
 * the event loop, not a timed wait: the tests use it to show that a promise is still pending, which has
 * no event to wait for.
 */
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

  it('draws at once as the user the hint names, before Firebase answers', async () => {
    localStorage.setItem(hintKey, 'u-ada');
    const session = await freshSession();
    expect(await settled(session.startSession())).toBe(true);
    expect(session.getAuthState()).toMatchObject({ status: 'signedIn', userId: 'u-ada', isAuthenticated: true });
    await vi.waitFor(() => expect(firebase.answer).not.toBeNull());
    firebase.answer!(ada);
    expect(session.getAuthState()).toMatchObject({ userId: 'u-ada', currentUser: ada });
  });

  it('signs out, and forgets the hint, when Firebase ends the session the hint named', async () => {
    localStorage.setItem(hintKey, 'u-ada');
    const session = await freshSession();
    await session.startSession();
    await vi.waitFor(() => expect(firebase.answer).not.toBeNull());
    firebase.answer!(null);
    expect(session.getAuthState()).toMatchObject({ status: 'signedOut', userId: null, isAuthenticated: false });
    expect(localStorage.getItem(hintKey)).toBeNull();
  });

  it('waits for Firebase where the hint says someone was signed in but not who (an older version wrote it)', async () => {
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
    expect(localStorage.getItem(hintKey)).toBe('u-ada');
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
