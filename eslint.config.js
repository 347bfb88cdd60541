import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Import zones (ARCHITECTURE.md): domain ← src/lib ← src/components ← src/features ← src/routes and src/app; sw/ and server/ use domain only. */
const zone = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

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
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  zone(['domain/**'], [{ group: ['**/src/**', '**/server/**', '**/sw/**', 'react', 'dexie', 'firebase*', 'fastify*'], message: 'domain/ imports nothing of src/, sw/ or server/.' }]),
  zone(['src/lib/**'], [{ group: ['**/features/**', '**/routes/**', '**/app/**', '**/components/**'], message: 'src/lib must not import components, features, routes or app.' }]),
  zone(['src/components/**'], [{ group: ['**/features/**', '**/routes/**', '**/app/**'], message: 'Shared components must not import features, routes or app.' }]),
  zone(['src/features/**'], [
    { group: ['**/routes/**', '**/app/**'], message: 'Features must not import routes or app.' },
    // From src/features/<x>/file, "../<y>/…" is another feature.
    { regex: '^\\.\\./(?!\\.\\.)[^/]+/', message: 'A feature does not import another feature: move the shared part to src/lib or domain/.' },
  ]),
  zone(['server/**', 'sw/**'], [{ group: ['**/src/**'], message: 'server/ and sw/ import domain/ only, nothing of src/.' }]),
);
