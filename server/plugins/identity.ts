import fp from 'fastify-plugin';
import type { IdentityProvider } from '../auth/firebase.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Firebase Auth, or a stand-in (server/auth/firebase.ts): token checks and account creation. */
    identity: IdentityProvider;
  }
}

/** app.identity, for the auth plugin and the admin routes that create accounts. */
export const identityPlugin = fp<{ identity: IdentityProvider }>(
  async (app, { identity }) => {
    app.decorate('identity', identity);
  },
  { name: 'identity' },
);
