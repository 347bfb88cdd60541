import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * Import zones (docs/architecture.md), one way only:
 *   domain ← src/lib ← src/components ← src/features ← src/app ← src/routes ← src/router.tsx, src/main.tsx
 * Features are cut by audience, then task: features/<audience>/<task>/. A task imports its own files, its
 * audience's shared/ folder, src/lib, src/components and domain/; never another task, another audience or
 * a common feature (auth, offline). sw/ and server/ use domain/ only.
 *
 * The rules read the import as written (relative, with its extension), so each zone knows how many `../`
 * lead back to src/. A zone is one config object: for the same files a later object would replace, not
 * extend, the rule of an earlier one, so the globs below do not overlap except where an override is meant.
 */
const zone = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

/** Who the app serves: features/<audience>/<task>/, with features/<audience>/shared/ for what its tasks share. */
const audiences = ['client', 'staff'];
/** Features every audience uses, with no tasks inside. */
const commonFeatures = ['auth', 'offline'];

/** `../` repeated `n` times, as the start of a regex. */
const up = (n) => `^(?:\\.\\./){${n}}`;

/** Outside its own feature, what a feature file `depth` folders below src/ may not reach (`depth` × `../` is src/). */
const featureLimits = (depth) => [
  { regex: `${up(depth)}(?!\\.\\./|lib/|components/)`, message: 'Beyond src/features a feature imports src/lib, src/components and domain/ only: not app/, routes/ or the router.' },
  { regex: `${up(depth + 1)}(?!domain/)`, message: 'Outside src/, features import domain/ only.' },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dev-dist/**', 'data/**', 'tests/output/**', 'src/route-tree.gen.ts', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  zone(['domain/**'], [{ group: ['**/src/**', '**/server/**', '**/sw/**', 'react', 'dexie', 'firebase*', 'fastify*'], message: 'domain/ imports nothing of src/, sw/ or server/.' }]),
  zone(['src/lib/**'], [{ regex: `${up(1)}(?!\\.\\./domain/)`, message: 'src/lib imports domain/ only.' }]),
  // After the lib zone, so that it replaces it for a module of several files (src/lib/sync/): its `../` is still src/lib.
  zone(['src/lib/*/**'], [{ regex: `${up(2)}(?!\\.\\./domain/)`, message: 'src/lib imports domain/ only.' }]),
  // And one level deeper (src/lib/sync/commands/): its `../../` is src/lib.
  zone(['src/lib/*/*/**'], [{ regex: `${up(3)}(?!\\.\\./domain/)`, message: 'src/lib imports domain/ only.' }]),
  zone(['src/components/**'], [{ regex: `${up(1)}(?!lib/|\\.\\./domain/)`, message: 'Shared components import src/lib and domain/ only.' }]),
  zone(
    commonFeatures.map((name) => `src/features/${name}/**`),
    [{ regex: `${up(1)}(?!\\.\\./)`, message: 'A feature does not import another feature: share through src/components or src/lib.' }, ...featureLimits(2)],
  ),
  zone(
    audiences.map((name) => `src/features/${name}/*/**`),
    [
      { regex: `${up(1)}(?!shared/|\\.\\./)`, message: "A task does not import another task: share through its audience's shared/ folder or src/components; the route composes tasks." },
      { regex: `${up(2)}(?!\\.\\./)`, message: 'A feature does not import another audience or another feature.' },
      ...featureLimits(3),
    ],
  ),
  // After the tasks' zone, so that it replaces it for shared/.
  zone(
    audiences.map((name) => `src/features/${name}/shared/**`),
    [
      { regex: `${up(1)}(?!\\.\\./)`, message: "An audience's shared/ folder serves its tasks and imports none of them." },
      { regex: `${up(2)}(?!\\.\\./)`, message: 'A feature does not import another audience or another feature.' },
      ...featureLimits(3),
    ],
  ),
  zone(['src/app/**'], [{ regex: '^(?:\\.\\./)+(?:routes/|route-tree\\.gen|router\\.tsx$|main\\.tsx$|server/|sw/)', message: 'src/app is below the routes: it does not import routes/, the route tree or the router, nor server/ or sw/.' }]),
  // A route importing the router would close the loop router → route tree → route → router.
  zone(['src/routes/**'], [{ regex: '^(?:\\.\\./)+(?:route-tree\\.gen|router\\.tsx$|main\\.tsx$|server/|sw/)', message: 'Routes compose app/, features, components and lib; they do not import the route tree, the router, server/ or sw/.' }]),
  zone(['server/**', 'sw/**'], [{ group: ['**/src/**'], message: 'server/ and sw/ import domain/ only, nothing of src/.' }]),
  // No import cycles in the app or domain.
  {
    files: ['src/**/*.{ts,tsx}', 'domain/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Every import names its file with the extension, so the plain Node resolver finds it; no TypeScript resolver needed.
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // Server layers, one way: routes → services → (serialize/, files/, auth/) → platform/ → db/. Plugins (hooks and
  // decorations) sit beside the services, below the routes; tracking/ (the capture) and sync/ (the client feed) are
  // services of their own.
  {
    files: ['server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './server/plugins', from: './server/routes', message: 'A plugin does not import server/routes: share through server/services.' },
            { target: './server/services', from: './server/routes', message: 'Services sit below the routes: a service does not import server/routes.' },
            {
              target: ['./server/serialize', './server/files', './server/auth', './server/platform', './server/tracking', './server/seed', './server/backup', './server/sync', './server/notify'],
              from: './server/routes',
              message: 'Only server/app.ts mounts the routes: nothing below them imports server/routes.',
            },
            {
              target: ['./server/serialize', './server/files', './server/auth'],
              from: ['./server/services', './server/plugins', './server/tracking', './server/seed', './server/sync'],
              message: 'serialize/, files/ and auth/ sit below the services and plugins: they import server/platform, server/db and domain/ only.',
            },
            {
              target: './server/platform',
              from: ['./server/services', './server/plugins', './server/tracking', './server/seed', './server/serialize', './server/files', './server/auth', './server/sync'],
              message: 'server/platform is what every layer runs on: it imports server/db and domain/ only.',
            },
            {
              target: './server/db',
              from: ['./server/routes', './server/plugins', './server/services', './server/serialize', './server/files', './server/auth', './server/tracking', './server/seed', './server/sync', './server/notify'],
              message: 'server/db is the bottom layer: it imports none of the layers above it.',
            },
          ],
        },
      ],
    },
  },
  // For routes only, without their tests (a test may import the route it tests). It replaces the rule above for routes, which no zone above targets.
  {
    files: ['server/routes/**/*.ts'],
    ignores: ['server/routes/**/*.test.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './server/routes', from: './server/routes', message: 'A route does not import another route: move what they share into server/services.' }] },
      ],
    },
  },
  // The client test kit (src/lib/test-kit.ts) sits in src/lib so that tests in every zone reach it, and serves tests only.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/lib/test-kit.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './src', from: './src/lib/test-kit.ts', message: 'src/lib/test-kit.ts is for tests (*.test.ts, *.test.tsx): app code does not import it.' }] },
      ],
    },
  },
);
