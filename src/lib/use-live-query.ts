import { liveQuery } from 'dexie';
import { type InteropableObservable, useObservable } from 'dexie-react-hooks';
import { startTransition } from 'react';

/**
 * dexie-react-hooks' useLiveQuery, with each new result applied as a React transition: a screen's re-render when
 * the replica changes (a pull's page, a command queued) yields to the browser every few milliseconds instead of
 * holding the main thread for its whole length, so a slow phone stays responsive (issue 14: these re-renders
 * were the long tasks of the signed-in screens). A result already known when the component mounts (Dexie's
 * cache) is still returned by the first render, as before; errors still reach the error boundary at once.
 */
export function useLiveQuery<T>(querier: () => Promise<T> | T, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, TDefault>(querier: () => Promise<T> | T, deps: unknown[], defaultResult: TDefault): T | TDefault;
export function useLiveQuery<T, TDefault>(querier: () => Promise<T> | T, deps: unknown[] = [], defaultResult?: TDefault): T | TDefault | undefined {
  return useObservable(() => asTransitions(liveQuery(querier)), deps, defaultResult);
}

/** The same observable, its values delivered inside startTransition (errors as they come). */
export function asTransitions<T>(source: InteropableObservable<T>): InteropableObservable<T> {
  return {
    subscribe: (onNext, onError) => source.subscribe((value) => startTransition(() => onNext(value)), onError),
    getValue: source.getValue?.bind(source),
    hasValue: source.hasValue?.bind(source),
  };
}
