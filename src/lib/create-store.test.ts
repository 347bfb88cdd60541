import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createStore } from './create-store.ts';

describe('createStore', () => {
  it('patches the state and tells subscribers until they unsubscribe', () => {
    const store = createStore({ count: 0, name: 'a' });
    let calls = 0;
    const stop = store.subscribe(() => (calls += 1));
    store.set({ count: 1 });
    expect(store.get()).toEqual({ count: 1, name: 'a' });
    stop();
    store.set({ count: 2 });
    expect(calls).toBe(1);
  });

  it('re-renders a hook user only when its slice changes', () => {
    const store = createStore({ count: 0, name: 'a' });
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return store.useSelect((s) => s.count);
    });
    const before = renders;
    act(() => store.set({ name: 'b' }));
    expect(renders).toBe(before);
    act(() => store.set({ count: 3 }));
    expect(result.current).toBe(3);
    expect(renders).toBe(before + 1);
  });
});
