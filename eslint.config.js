import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import security from 'eslint-plugin-security';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const serverOnly = ['fastify', 'fastify-*', '@fastify/*', 'drizzle-orm', 'drizzle-orm/*', 'pg', '@electric-sql/*', '@node-rs/*', 'ioredis', 'pino', 'node:*'];

/** Dependencies run one way: client and server import shared; only server imports db; shared imports only zod. */
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

/**
 * Features do not import each other (architecture.md, Bulletproof's restricted paths): the app
 * layer (src/client/app) composes them. Two modules are the app-wide session and
 * configuration every screen reads, and stay importable: auth/auth-context, config/use-config.
 */
const features = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const publicFeatureModules = ['auth/auth-context', 'config/use-config'];
const featureZones = features.map((feature) => ({
  files: [`src/client/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              ...features.filter((other) => other !== feature).map((other) => `**/${other}/**`),
              ...publicFeatureModules.filter((m) => !m.startsWith(`${feature}/`)).map((m) => `!**/${m}`),
              '**/app/**', '\\#server/*', '\\#db/*', '**/server/**', '**/db/**', ...serverOnly,
            ],
            message: 'A feature imports shared code, components and lib, not another feature (compose them in src/client/app).',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/**', '.tmp/**', 'node_modules/**', 'drizzle/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]", message: 'Focused tests are not allowed.' },
        { selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]", message: 'Skipped tests are not allowed.' },
      ],
    },
  },
  // eslint-plugin-security, as errors; which rules and why: docs/decisions/security-linting.md.
  {
    plugins: { security },
    rules: {
      'security/detect-eval-with-expression': 'error',
      'security/detect-non-literal-require': 'error',
      'security/detect-pseudoRandomBytes': 'error',
      'security/detect-buffer-noassert': 'error',
      'security/detect-new-buffer': 'error',
      'security/detect-disable-mustache-escape': 'error',
      'security/detect-no-csrf-before-method-override': 'error',
      'security/detect-bidi-characters': 'error',
      'security/detect-invisible-characters': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'security/detect-unsafe-regex': 'error',
      'security/detect-non-literal-regexp': 'error',
      'security/detect-child-process': 'error',
      'security/detect-possible-timing-attacks': 'error',
    },
  },
  {
    files: ['src/server/**/*.ts', 'src/db/**/*.ts'],
    rules: { 'security/detect-non-literal-fs-filename': 'error' },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      ...restrict(['\\#server/*', '\\#db/*', '**/server/**', '**/db/**', ...serverOnly], 'The client may import only shared code and browser libraries.'),
    },
  },
  ...featureZones,
  {
    files: ['src/client/components/**/*.{ts,tsx}'],
    rules: restrict(['**/features/**', '**/app/**', '\\#server/*', '\\#db/*', '**/server/**', '**/db/**', ...serverOnly], 'components/ holds app-agnostic pieces: no features, no app.'),
  },
  {
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: restrict(['\\#server/*', '\\#db/*', '**/server/**', '**/db/**', '**/client/**', 'react', 'react-*', ...serverOnly], 'Shared code imports only zod.'),
  },
  {
    // The catalogue's checks read the client's source files (they ship nowhere).
    files: ['src/shared/**/*.test.ts'],
    rules: restrict(['\\#server/*', '\\#db/*', '**/server/**', '**/db/**', '**/client/**', 'react', 'react-*'], 'Shared tests read files, nothing else of the server.'),
  },
  {
    files: ['src/db/**/*.ts'],
    rules: restrict(['\\#server/*', '**/server/**', '**/client/**'], 'The database layer does not depend on the server or the client.'),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict(['**/client/**', 'react', 'react-*'], 'The server does not import client code.'),
  },
);
