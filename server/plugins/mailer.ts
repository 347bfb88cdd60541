import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../notify/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Email through SMTP (server/notify/mailer.ts), or null when email is off (EMAIL=off, or a local server
     * without SMTP_URL): whoever sends mail checks for null first.
     */
    mailer: Mailer | null;
  }
}

/** app.mailer: one pooled SMTP transport per app, made from config.email and closed with the app. */
export const mailerPlugin = fp(
  async (app) => {
    const mailer = createMailer(app.config.email);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => {
      await mailer?.close();
    });
  },
  { name: 'mailer', dependencies: ['config'] },
);
