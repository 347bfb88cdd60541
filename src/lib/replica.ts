import { useLiveQuery } from './use-live-query.ts';
import { createContext, useContext } from 'react';
import type { Profile } from '../../domain/schemas.ts';
import type { PortalDb } from './db.ts';

/** The signed-in user's replica, provided by the authenticated layout. */
export const ReplicaContext = createContext<PortalDb | null>(null);

export function useReplica(): PortalDb {
  const db = useContext(ReplicaContext);
  if (!db) throw new Error('useReplica outside the signed-in layout');
  return db;
}

/** The profile as the device knows it; undefined while Dexie answers, null if never loaded. */
export function useProfile(): Profile | null | undefined {
  const db = useReplica();
  return useLiveQuery(async () => (await db.profile.get(db.uid)) ?? null, [db]);
}

export function displayName(profile: Pick<Profile, 'firstName' | 'lastName' | 'email'> | null | undefined): string {
  if (!profile) return '';
  const full = [profile.firstName, profile.lastName].filter(Boolean).join(' ');
  return full || profile.email;
}
