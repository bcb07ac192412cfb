// One lint configuration for the whole workspace: TypeScript rules everywhere, React hooks and accessibility
// rules for the client apps, Node globals for the server and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

const clientFiles = ['packages/shared/src/**/*.{ts,tsx}', 'shell/src/**/*.{ts,tsx}', 'mf-*/src/**/*.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'e2e/.tmp/**', 'data/**', '**/@mf-types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['server/test/**/*.ts', 'server/bench/**/*.ts', 'e2e/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.{mjs,cjs,js}', 'server/**/*.ts', 'e2e/**/*.ts', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Code that Playwright runs inside the page (evaluate callbacks) sees the browser's globals.
    files: ['e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Specs take `test` from tests/test.ts: it checks the Content-Security-Policy and closes the contexts a test
    // opened (left open, they kept running beside every later test of the worker).
    files: ['e2e/tests/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@playwright/test', message: "Import test and expect from './test'." }] }] },
  },
  {
    files: clientFiles,
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // The first field of a one-purpose form (a sign-in step, a modal) is focused on purpose.
      'jsx-a11y/no-autofocus': 'off',
      // Every fetch goes through the typed API client in packages/shared.
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the API client from @messenger/shared.' }],
      // The router is one shared instance only through @messenger/router; react-router imported directly would be
      // a second copy (hooks outside the shell's router) and all of react-router on every page.
      'no-restricted-imports': ['error', { paths: [{ name: 'react-router', message: 'Import from @messenger/router.' }] }],
    },
  },
  {
    // Unit tests wrap components in react-router's MemoryRouter (one module in Jest, no federation there).
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The API client itself; and the service worker, which passes page navigations through to the network.
    files: ['packages/shared/src/api/**', 'shell/src/service-worker/**'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**', '**/jest.setup.ts'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
  },
);
