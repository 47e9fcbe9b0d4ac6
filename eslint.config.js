// ESLint flat config. Beyond style, it enforces the design's import directions (../shared/design/layout.md):
// the renderer never reaches Node, Electron, main or the simulator; shared code stays pure (no Node,
// Electron or DOM), so it runs unchanged in every process and in the simulator.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];


function restricted(extraPatterns) {
  return [
    'error',
    {
      paths: [
        { name: 'electron', message: 'Electron is reachable only from src/main (the shell) and src/preload.' },
        ...nodeBuiltins.map((name) => ({ name, message: 'Node APIs are not allowed in this layer.' })),
      ],
      patterns: extraPatterns,
    },
  ];
}

export default tseslint.config(
  { ignores: ['.tmp/**', 'out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': restricted([
        { group: ['**/main/**', '**/src/main', '../../main/*'], message: 'The renderer talks to main only through window.perps.' },
        { group: ['**/sim/**'], message: 'The renderer never imports the simulator.' },
        { group: ['**/preload/**'], message: 'The renderer uses window.perps, not the preload module.' },
        // The IPC contract's zod schemas belong to main and the preload; a value import would ship zod and
        // every schema in the first script, and zod's eval probe trips the page's Content-Security-Policy.
        // The channel names (shared/ipc/channels) are zod-free, like the preload's only import.
        {
          group: ['**/shared/fieldSchemas', '**/shared/signingViews', '**/shared/orders/review', '**/shared/orders/intents', '**/shared/protocol/schemas/*', '**/shared/protocol/envelope', 'zod', 'zod/*'],
          allowTypeImports: true,
          message: 'Import types only from the zod-backed contract modules (values live in zod-free modules such as shared/orders/priceGuard).',
        },
        {
          // shared/ipc (the contract's import path) and every file of shared/ipc/ but the channel names.
          regex: '(^|/)shared/ipc((\\.js)?|/index(\\.js)?|/(?!channels(\\.js)?$)[^/]+)$',
          allowTypeImports: true,
          message: 'Import types only from the zod-backed contract modules (values live in zod-free modules such as shared/orders/priceGuard).',
        },
      ]),
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restricted([
        { group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/sim/**', '**/cli/**'], message: 'src/shared depends on nothing but its libraries.' },
        { group: ['react', 'react-dom', 'react/*'], message: 'src/shared is UI-free.' },
      ]),
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'fetch', 'XMLHttpRequest', 'WebSocket'].map((name) => ({
          name,
          message: 'src/shared must not use DOM or network APIs.',
        })),
        ...['process', 'Buffer', '__dirname', '__filename', 'require', 'global', 'setImmediate'].map((name) => ({
          name,
          message: 'src/shared must not use Node APIs.',
        })),
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/main/**', '**/sim/**', '**/renderer/**'], message: 'The preload depends only on the shared IPC contract.' }] },
      ],
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The simulator is plain Node.' }],
          patterns: [{ group: ['**/main/**', '**/cli/**', '**/renderer/**', '**/preload/**'], message: 'The simulator depends on src/shared only.' }],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The command line never loads Electron.' }],
          patterns: [
            { group: ['**/main/ipc/**', '**/main/index*', '**/renderer/**', '**/preload/**'], message: 'The command line calls services, never IPC or the shell.' },
            { group: ['**/main/app/**'], message: "The command line calls services, never the app's session or desks." },
          ],
        },
      ],
    },
  },
  {
    // IPC handlers take desks; they never reach the command line (both front ends meet in services only).
    files: ['src/main/ipc/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli/**'], message: 'IPC handlers and the command line never import each other: both call the same services.' }] }],
    },
  },
  {
    // A desk is built by the app's composition root only; everything else may name its type (a handler
    // group takes its desk), never construct or call into one by importing it.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/app/**', 'src/renderer/**', 'src/shared/**', 'src/preload/**', 'src/sim/**', 'src/cli/**', 'src/main/ipc/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/app/desks/**', '**/app/companion/*Desk*', '**/app/companion/companionDesks*'], message: 'Only src/main/app builds desks.', allowTypeImports: true }] }],
    },
  },
  {
    files: ['src/main/ipc/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/app/desks/**', '**/app/companion/*Desk*', '**/app/companion/companionDesks*'], message: 'IPC handlers take their desk; only src/main/app builds desks.', allowTypeImports: true }] }],
    },
  },
);
