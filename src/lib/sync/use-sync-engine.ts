import { createContext, useContext } from 'react';
import type { SyncEngine } from './engine.ts';

/** The signed-in user's sync engine, created and started by the signed-in layout. */
export const SyncEngineContext = createContext<SyncEngine | null>(null);

export function useSyncEngine(): SyncEngine {
  const engine = useContext(SyncEngineContext);
  if (!engine) throw new Error('useSyncEngine outside the signed-in layout');
  return engine;
}
