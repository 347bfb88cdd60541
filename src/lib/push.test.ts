import { describe, expect, it } from 'vitest';
import { PortalDb } from './db.ts';
import { type DeviceSubscription, type PushEnv, type PushPermission, disablePush, enablePush, forgetDevice, isPushWanted, keyBytes, markPushOfferDue, answerPushOffer, readPushOffer, showsPushOffer, syncPushSubscription, turnOnPushHere } from './push.ts';
import { NetworkError } from './api-errors.ts';
import { withReplica } from './test-kit.ts';

const KEY_A = 'BAAB'; // three bytes are enough to tell keys apart here
const KEY_B = 'BAAC';

/** A browser and server in memory: what push.ts asked of them is in `calls`. */
function fakeEnv(start: { permission: PushPermission; subscribedWith?: string; answer?: PushPermission; serverKey?: string }) {
  const calls: string[] = [];
  let permission = start.permission;
  const made = (key: string, n: number): DeviceSubscription => ({
    endpoint: `https://push.example/${n}`,
    options: { applicationServerKey: keyBytes(key).buffer },
    toJSON: () => ({ endpoint: `https://push.example/${n}` }),
    unsubscribe: async () => {
      calls.push(`unsubscribe ${n}`);
      current = null;
      return true;
    },
  });
  let count = 0;
  let current: DeviceSubscription | null = start.subscribedWith ? made(start.subscribedWith, count++) : null;
  const env: PushEnv = {
    permission: async () => permission,
    requestPermission: async () => {
      calls.push('prompt');
      permission = start.answer ?? permission;
      return permission;
    },
    getSubscription: async () => current,
    subscribe: async (key) => {
      const n = count++;
      calls.push(`subscribe ${n}`);
      current = made(btoa(String.fromCharCode(...key)), n);
      return current;
    },
    publicKey: async () => start.serverKey ?? KEY_A,
    save: async (json) => void calls.push(`POST ${(json as { endpoint: string }).endpoint}`),
    forget: async (endpoint) => void calls.push(`DELETE ${endpoint}`),
  };
  return { env, calls };
}

describe('push on this device', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));

  it('does nothing on start when the user did not turn it on here, even with permission granted', async () => {
    const { env, calls } = fakeEnv({ permission: 'granted' });
    expect(await syncPushSubscription(env, false)).toBe('off');
    expect(calls).toEqual([]);
  });

  it('never prompts on start: without permission it reports blocked', async () => {
    const { env, calls } = fakeEnv({ permission: 'default', answer: 'granted' });
    expect(await syncPushSubscription(env, true)).toBe('blocked');
    expect(calls).toEqual([]);
  });

  it('gives a subscription made with the current key to the server again on every start', async () => {
    const { env, calls } = fakeEnv({ permission: 'granted', subscribedWith: KEY_A });
    expect(await syncPushSubscription(env, true)).toBe('kept');
    expect(calls).toEqual(['POST https://push.example/0']);
  });

  it('subscribes again when the subscription is missing (expired) or was made with another key', async () => {
    const missing = fakeEnv({ permission: 'granted' });
    expect(await syncPushSubscription(missing.env, true)).toBe('subscribed');
    expect(missing.calls).toEqual(['subscribe 0', 'POST https://push.example/0']);

    const rotated = fakeEnv({ permission: 'granted', subscribedWith: KEY_A, serverKey: KEY_B });
    expect(await syncPushSubscription(rotated.env, true)).toBe('subscribed');
    expect(rotated.calls).toEqual(['unsubscribe 0', 'subscribe 1', 'POST https://push.example/1']);
  });

  it('enablePush prompts, remembers the choice and subscribes; a refusal leaves it off', async () => {
    const yes = fakeEnv({ permission: 'default', answer: 'granted' });
    expect(await enablePush(yes.env, db)).toBe('subscribed');
    expect(yes.calls).toEqual(['prompt', 'subscribe 0', 'POST https://push.example/0']);
    expect(await isPushWanted(db)).toBe(true);

    await disablePush(yes.env, db);
    expect(await isPushWanted(db)).toBe(false);
    const no = fakeEnv({ permission: 'default', answer: 'denied' });
    expect(await enablePush(no.env, db)).toBe('blocked');
    expect(await isPushWanted(db)).toBe(false);
    // Denied before: the browser would not ask again, so neither do we.
    const denied = fakeEnv({ permission: 'denied' });
    expect(await enablePush(denied.env, db)).toBe('blocked');
    expect(denied.calls).toEqual([]);
  });

  it('turning push on here: off again when the server refuses the subscription, kept for later when offline', async () => {
    const refused = fakeEnv({ permission: 'granted' });
    refused.env.save = async () => {
      throw new Error('500');
    };
    expect(await turnOnPushHere(refused.env, db)).toBe('failed');
    expect(await isPushWanted(db)).toBe(false);
    const offline = fakeEnv({ permission: 'granted' });
    offline.env.save = async () => {
      throw new NetworkError();
    };
    expect(await turnOnPushHere(offline.env, db)).toBe('offline');
    expect(await isPushWanted(db)).toBe(true);
  });

  it('disablePush and sign-out make the server forget the device and drop the subscription, even when the server fails', async () => {
    const on = fakeEnv({ permission: 'granted', subscribedWith: KEY_A });
    await disablePush(on.env, db);
    expect(on.calls).toEqual(['DELETE https://push.example/0', 'unsubscribe 0']);

    const failing = fakeEnv({ permission: 'granted', subscribedWith: KEY_A });
    failing.env.forget = async () => {
      throw new Error('offline');
    };
    await expect(forgetDevice(failing.env)).rejects.toThrow('offline');
    expect(failing.calls).toEqual(['unsubscribe 0']);
  });

  it('offers push once: after an order or when installed, until answered, and never where it cannot work', () => {
    const storage = new Map<string, string>();
    const local = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) };
    const base = { standalone: false, permission: 'default' as const, wanted: false };
    expect(showsPushOffer({ ...base, offer: readPushOffer(local) })).toBe(false);
    expect(showsPushOffer({ ...base, standalone: true, offer: readPushOffer(local) })).toBe(true);
    markPushOfferDue(local);
    expect(showsPushOffer({ ...base, offer: readPushOffer(local) })).toBe(true);
    expect(showsPushOffer({ ...base, permission: 'denied', offer: readPushOffer(local) })).toBe(false);
    expect(showsPushOffer({ ...base, wanted: true, offer: readPushOffer(local) })).toBe(false);
    answerPushOffer(local);
    markPushOfferDue(local);
    expect(showsPushOffer({ ...base, standalone: true, offer: readPushOffer(local) })).toBe(false);
  });
});
