import { afterEach, describe, expect, it, vi } from 'vitest';

const transitions = vi.hoisted(() => ({ count: 0 }));
vi.mock('react', async (importOriginal) => {
  const react = await importOriginal<typeof import('react')>();
  return {
    ...react,
    startTransition: (fn: () => void) => {
      transitions.count++;
      react.startTransition(fn);
    },
  };
});

const { asTransitions } = await import('./use-live-query.ts');
const { CATCH_UP_REFRESH_MS, beginCatchUp } = await import('./sync/catch-up.ts');

function subject<T>() {
  let next: (v: T) => void = () => undefined;
  let fail: (e: unknown) => void = () => undefined;
  let unsubscribed = false;
  const source = {
    subscribe(onNext: (v: T) => void, onError?: (e: unknown) => void) {
      next = onNext;
      fail = onError ?? fail;
      return { unsubscribe: () => (unsubscribed = true) };
    },
    hasValue: () => true,
    getValue: () => 'cached' as T,
  };
  return { source, emit: (v: T) => next(v), fail: (e: unknown) => fail(e), unsubscribed: () => unsubscribed };
}

describe('asTransitions', () => {
  it('hands each value on at once, inside a transition', () => {
    const s = subject<string>();
    const seen: string[] = [];
    asTransitions(s.source).subscribe((v) => seen.push(v));
    const before = transitions.count;
    s.emit('a');
    s.emit('b');
    expect(seen).toEqual(['a', 'b']);
    expect(transitions.count - before).toBe(2);
  });

  it('hands errors on outside a transition, and unsubscribes from the source', () => {
    const s = subject<string>();
    const errors: unknown[] = [];
    const sub = asTransitions(s.source).subscribe(() => undefined, (e) => errors.push(e));
    const before = transitions.count;
    s.fail('boom');
    expect(errors).toEqual(['boom']);
    expect(transitions.count).toBe(before);
    (sub as { unsubscribe(): void }).unsubscribe();
    expect(s.unsubscribed()).toBe(true);
  });

  it("keeps the source's current value, so a first render can show a cached result", () => {
    const s = subject<string>();
    const wrapped = asTransitions(s.source);
    expect(wrapped.hasValue?.()).toBe(true);
    expect(wrapped.getValue?.()).toBe('cached');
  });
});

describe('asTransitions during a catch-up', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the results that come within a second of the last one and hands on the latest when the catch-up ends', () => {
    const s = subject<string>();
    const seen: string[] = [];
    asTransitions(s.source).subscribe((v) => seen.push(v));
    s.emit('before');
    const end = beginCatchUp();
    s.emit('page 1');
    s.emit('page 2');
    expect(seen).toEqual(['before']);
    end();
    expect(seen).toEqual(['before', 'page 2']);
    s.emit('after');
    expect(seen).toEqual(['before', 'page 2', 'after']);
  });

  it('still refreshes once a second during a long catch-up, with the latest result', () => {
    vi.useFakeTimers();
    const s = subject<number>();
    const seen: number[] = [];
    asTransitions(s.source).subscribe((v) => seen.push(v));
    const end = beginCatchUp();
    s.emit(1); // the first result of the subscription comes at once
    s.emit(2);
    s.emit(3);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(CATCH_UP_REFRESH_MS);
    expect(seen).toEqual([1, 3]);
    s.emit(4);
    end();
    expect(seen).toEqual([1, 3, 4]);
  });

  it('hands nothing on after the unsubscribe, even when a catch-up ends with a result held', () => {
    const s = subject<string>();
    const seen: string[] = [];
    const sub = asTransitions(s.source).subscribe((v) => seen.push(v));
    const end = beginCatchUp();
    s.emit('a');
    s.emit('held');
    (sub as { unsubscribe(): void }).unsubscribe();
    end();
    expect(seen).toEqual(['a']);
  });
});
