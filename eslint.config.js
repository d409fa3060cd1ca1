// ESLint (flat config) for the TypeScript of the service, its tests, benches, scripts and the
// dashboard. Import boundaries (docs/architecture.md) are dependency-cruiser's (.dependency-cruiser.cjs);
// `npm run lint` runs both. Type-aware rules are used where they are cheap: only the service's
// own sources (src/), and only rules that catch what tsc does not (an unhandled promise).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  performance: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'web/dist/**', 'coverage/**', 'packages/client/src/schema.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // House style: a leading underscore marks a parameter or binding kept on purpose (an
      // interface's argument, the rest of a destructured row).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `any` appears where a test pokes at untyped JSON or a library's types fall short; tsc's
      // strict mode checks everything else, and a ban would only turn these into `as never`.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Plain JavaScript build and bench scripts run on Node.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    // CommonJS configuration files (dependency-cruiser's).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Type-aware, on the service only (one TypeScript program, the tsconfig's).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // Control characters are what these patterns look for (USPS Pub. 28 tokens).
    files: ['src/modules/addresses/street-standardizer.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
