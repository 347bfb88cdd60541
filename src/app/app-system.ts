import type { SystemContext } from '@chakra-ui/react';
import { createStore } from '../lib/create-store.ts';
import { shellSystem } from './theme.ts';

/** The Chakra system the app draws with: the shell's few recipes at first, every recipe once loaded (theme.ts). */
const store = createStore<{ system: SystemContext | null }>({ system: null });
let loading: Promise<void> | null = null;

export function useAppSystem(): SystemContext {
  return store.useSelect((s) => s.system ?? shellSystem());
}

/**
 * Builds the system the first render will draw with, in a task of its own, so that the render does not: building
 * one is a single piece of work of 30–50 ms here (×4 on Lighthouse's phone), which the render, a transition that
 * otherwise yields every few milliseconds, cannot split. One long task the browser cannot interrupt becomes two
 * shorter ones, with input and paint handled in between. With the full system in (a signed-in start), there is
 * nothing to build and nothing to wait for.
 */
export async function prepareAppSystem(): Promise<void> {
  if (store.get().system) return;
  await nextTask();
  shellSystem();
  await nextTask();
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/**
 * Loads the full theme (once) and switches the app to it. Every screen past the sign-in screen waits for it in
 * its route guard, so nothing renders with a recipe missing. A failed load (offline before the service worker
 * cached the file) is tried again on the next call.
 */
export function loadFullSystem(): Promise<void> {
  loading ??= import('./full-theme.ts').then(
    ({ fullSystem }) => store.set({ system: fullSystem }),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}
