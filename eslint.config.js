import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Layers (docs/decisions/009-layers-and-imports.md): app/ is the product and imports nothing from the
 * processes and harnesses around it; the worker, scripts and tests import app/, never the reverse.
 * Domain modules (app/<area>/*.server.ts) are used by pages, never the other way round, and db/
 * (migrations, seed) stays below the UI.
 */
const productionZones = [
  {
    target: './app',
    from: ['./worker', './scripts', './tests', './bench'],
    message: 'app/ must not import the worker, scripts, tests or bench: move what both need into app/ (jobs: app/jobs/).',
  },
  {
    target: ['./app/*.server.ts', './app/!(components|routes)/**/*.server.ts'],
    from: ['./app/components', './app/routes'],
    message: 'A domain module must not import pages or UI: move what both need into the domain area.',
  },
  { target: './db', from: ['./app/routes', './app/components'], message: 'db/ must not import pages or UI.' },
];
// Tests beside the code may use the harness (tests/support) and drive worker jobs and scripts directly.
const testZones = [productionZones[1], productionZones[2]];

export default tseslint.config(
  { ignores: ['build/', 'public/build/', '.cache/', '.data/', 'node_modules/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      // zod's `z` export is a namespace object holding every locale's error messages (about 260 KB of
      // the browser bundle, which esbuild cannot shake from it); `import * as z` keeps only what is used.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "Use `import * as z from 'zod'` (keeps zod's locales out of the browser bundle).",
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], alias: { '~': [path.join(path.dirname(fileURLToPath(import.meta.url)), 'app')] } }),
      ],
    },
    rules: {
      // Type-only imports are not followed (they vanish at run time); shared types live in a module
      // both sides import (e.g. app/workflows/types.ts) rather than in either side.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: productionZones }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: testZones }] },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
