import { liveQuery } from 'dexie';
import { type InteropableObservable, useObservable } from 'dexie-react-hooks';
import { startTransition } from 'react';
import { CATCH_UP_REFRESH_MS, isCatchingUp, onCatchUpEnd } from './sync/catch-up.ts';

/**
 * dexie-react-hooks' useLiveQuery, with each new result applied as a React transition: a screen's re-render when
 * the replica changes (a pull's page, a command queued) yields to the browser every few milliseconds instead of
 * holding the main thread for its whole length, so a slow phone stays responsive (these re-renders are
 * the long tasks of the signed-in screens). A result already known when the component mounts (Dexie's
 * cache) is still returned by the first render, as before; errors still reach the error boundary at once.
 * While the replica catches up (a pull of several pages), results come at most once every CATCH_UP_REFRESH_MS and
 * the latest one as soon as the pull ends (src/lib/sync/catch-up.ts).
 */
export function useLiveQuery<T>(querier: () => Promise<T> | T, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, TDefault>(querier: () => Promise<T> | T, deps: unknown[], defaultResult: TDefault): T | TDefault;
export function useLiveQuery<T, TDefault>(querier: () => Promise<T> | T, deps: unknown[] = [], defaultResult?: TDefault): T | TDefault | undefined {
  return useObservable(() => asTransitions(liveQuery(querier)), deps, defaultResult);
}

/**
 * The same observable, its values delivered inside startTransition (errors as they come). During a catch-up a value
 * that comes within CATCH_UP_REFRESH_MS of the last one delivered is held, and only the latest held one is delivered:
 * when that time is up or when the catch-up ends, whichever is first.
 */
export function asTransitions<T>(source: InteropableObservable<T>): InteropableObservable<T> {
  return {
    subscribe: (onNext, onError) => {
      let deliveredAt = -Infinity;
      let held: { value: T } | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deliver = (value: T) => {
        held = null;
        clearTimeout(timer);
        timer = undefined;
        deliveredAt = performance.now();
        startTransition(() => onNext(value));
      };
      const deliverHeld = () => {
        if (held) deliver(held.value);
      };
      const stopWatching = onCatchUpEnd(deliverHeld);
      const subscription = source.subscribe((value) => {
        const wait = deliveredAt + CATCH_UP_REFRESH_MS - performance.now();
        if (!isCatchingUp() || wait <= 0) return deliver(value);
        held = { value };
        timer ??= setTimeout(deliverHeld, wait);
      }, onError);
      return {
        unsubscribe() {
          stopWatching();
          clearTimeout(timer);
          if (typeof subscription === 'function') subscription();
          else subscription.unsubscribe();
        },
      };
    },
    getValue: source.getValue?.bind(source),
    hasValue: source.hasValue?.bind(source),
  };
}
