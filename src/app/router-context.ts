import type { Profile } from '../../domain/schemas.ts';
import type { AuthState } from '../lib/session.ts';

/** What every route's beforeLoad can read: who is signed in, and their profile for the role guards. */
export interface RouterContext {
  auth: AuthState;
  /** The signed-in user's profile from the device, after its first load when the device has none yet. */
  profile(): Promise<Profile | null>;
}
