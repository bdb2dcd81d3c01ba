// ESLint over every TypeScript and JavaScript file of ours: `npm run lint` (with the import rules of
// .dependency-cruiser.cjs), and `npm test` right after the type check. docs/architecture.md says more.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'bench/results/**',
      'screenshots/**',
      'test-results/**',
      // Websites and recorded provider answers the scraper's tests read: other people's code.
      'services/scraper/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore names what is left out on purpose: a field dropped by a rest
      // destructuring, a parameter a signature requires.
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_',
        ignoreRestSiblings: true,
      }],
      // Scraped pages and user input are hostile: the code that cleans them names control characters
      // (\x00-\x1f) in its regular expressions on purpose, the only place this rule ever fires here.
      'no-control-regex': 'off',
    },
  },
  {
    // A promise nobody awaits loses its error, and so does one handed to a callback that ignores what it
    // returns (an event handler, a request listener). These rules read types: each file with its
    // workspace's tsconfig.json, typed by TypeScript 7.1, the compiler of the type check and the build,
    // through typescript-eslint's tsgo backend (docs/decisions.md, "Lint on the build's TypeScript").
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: { projectService: { EXPERIMENTAL_backend: 'tsgo' }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // A test reads JSON answers and asserts their shape; declaring each answer's type would only restate the assertion.
    files: ['**/test/**', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
);
