import { type App, initializeApp, applicationDefault, deleteApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { Config } from '../config.ts';

/** A checked ID token: whose it is, and when it was issued and expires (seconds since the epoch). */
export interface VerifiedToken {
  uid: string;
  email: string | null;
  issuedAt: number;
  expiresAt: number;
  /**
   * When the user signed in (seconds since the epoch): every token refreshed from one sign-in keeps it, so the user
   * and this name one session (docs/decisions/031-second-factor-and-sessions.md).
   */
  authTime: number;
}

/** The one wrapper around firebase-admin: what the server needs of the identity provider. */
export interface IdentityProvider {
  /**
   * The full check: signature and expiry, and a round trip for the account's revocation, disabled and
   * deleted state. Callers go through server/auth/token-checks.ts, which spares reads the round trip.
   */
  verifyIdToken(token: string): Promise<VerifiedToken>;
  createUser(input: { email: string; displayName: string; phone?: string }): Promise<{ uid: string }>;
  userExists(uid: string): Promise<boolean>;
  /** Removes an account (undoing a Create User that failed half-way). */
  deleteUser(uid: string): Promise<void>;
  /**
   * Finds the account by email or creates it with this password (demo seeding and tests). With `uid`, the
   * account ends up with that uid: made with it when missing, made again with it when the provider holds
   * the email under another uid (a local emulator that lost its accounts; the database's uid wins).
   */
  ensureUser(input: { email: string; password: string; displayName: string; uid?: string }): Promise<{ uid: string; created: boolean }>;
  /** Disables or enables the account: a disabled account cannot sign in or refresh its tokens. */
  setDisabled(uid: string, disabled: boolean): Promise<void>;
  /** Sends the set-password (password reset) email; its link opens /initial-password. */
  sendPasswordSetupEmail(email: string): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export function createIdentityProvider(config: Config): IdentityProvider {
  const app: App = initializeApp(
    config.FIREBASE_AUTH_EMULATOR_HOST
      ? { projectId: config.FIREBASE_PROJECT_ID }
      : { projectId: config.FIREBASE_PROJECT_ID, credential: applicationDefault() },
    `portal-${++counter}`,
  );
  const auth = getAuth(app);
  const identityToolkit = config.FIREBASE_AUTH_EMULATOR_HOST
    ? `http://${config.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`
    : 'https://identitytoolkit.googleapis.com/v1';
  return {
    async verifyIdToken(token) {
      // checkRevoked: a disabled, deleted or signed-out-everywhere account is refused by this call.
      const decoded = await auth.verifyIdToken(token, true);
      return { uid: decoded.uid, email: decoded.email ?? null, issuedAt: decoded.iat, expiresAt: decoded.exp, authTime: decoded.auth_time };
    },
    async createUser({ email, displayName }) {
      const user = await auth.createUser({ email, displayName, emailVerified: false });
      return { uid: user.uid };
    },
    deleteUser: (uid) => auth.deleteUser(uid),
    async setDisabled(uid, disabled) {
      await auth.updateUser(uid, { disabled });
    },
    async userExists(uid) {
      try {
        await auth.getUser(uid);
        return true;
      } catch {
        return false;
      }
    },
    async ensureUser({ email, password, displayName, uid }) {
      const existing = await auth.getUserByEmail(email).catch((err: unknown) => {
        if ((err as { code?: string }).code === 'auth/user-not-found') return null;
        throw err;
      });
      if (existing && (uid === undefined || existing.uid === uid)) return { uid: existing.uid, created: false };
      if (existing) await auth.deleteUser(existing.uid);
      const user = await auth.createUser({ ...(uid ? { uid } : {}), email, password, displayName, emailVerified: true });
      return { uid: user.uid, created: true };
    },
    async sendPasswordSetupEmail(email) {
      // The Admin SDK only generates links; the REST call makes the provider send the email itself.
      const key = config.FIREBASE_WEB_API_KEY;
      const res = await fetch(`${identityToolkit}/accounts:sendOobCode?key=${encodeURIComponent(key)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestType: 'PASSWORD_RESET', email }),
      });
      if (!res.ok) throw new Error(`Could not send the set-password email (${res.status})`);
    },
    close: () => deleteApp(app),
  };
}
