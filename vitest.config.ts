import { defineConfig } from 'vitest/config';
import { chakraThemeAlias } from './vite.config.ts';
import { ProcessesFirstSequencer } from './tests/support/server-sequencer.ts';

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('test') },
  resolve: { alias: [chakraThemeAlias] },
  test: {
    sequence: { sequencer: ProcessesFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['domain/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          environment: 'happy-dom',
          setupFiles: ['tests/support/unit-setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          // scripts/: the local stack's own tests (a hard stop of `npm start`).
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/server-global-setup.ts'],
          setupFiles: ['tests/support/server-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One PGlite per file. Files run three at a time (--maxWorkers=3 in package.json: vitest's own default
          // is one fewer than the cores, a single worker here): much of a server test's time is spent waiting on
          // fsync, child processes and sockets, so a third file fills the cores' idle time.
          fileParallelism: true,
          // A worker keeps its modules from one file to the next: every file builds its own app, database and
          // emulator accounts, and the files that fake the clock or set the environment put them back. Loading the
          // server's modules again for each of 71 files cost more than a minute of the stage.
          isolate: false,
        },
      },
    ],
  },
});
