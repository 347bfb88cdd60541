import type { Profile } from './schemas.ts';

export type Role = 'staff' | 'admin';

/** Whether the profile holds a role; admins are staff too, whatever an older replica row says. */
export function hasRole(profile: Pick<Profile, 'isStaff' | 'isAdmin'> | null | undefined, role: Role): boolean {
  if (!profile) return false;
  return role === 'admin' ? profile.isAdmin : profile.isStaff || profile.isAdmin;
}
