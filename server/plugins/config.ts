import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The environment, validated once by loadConfig (server/config.ts). */
    config: Config;
  }
}

/** app.config: the settings the composition root loaded, for every plugin and route. */
export const configPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'config' },
);
