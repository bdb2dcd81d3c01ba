// The ESLint packages the root eslint.config.js uses, resolved from here: lint/ installs them with the
// TypeScript they can read (6.x), apart from the workspaces' TypeScript 7.
export { default as js } from '@eslint/js';
export { default as tseslint } from 'typescript-eslint';
export { default as reactHooks } from 'eslint-plugin-react-hooks';
export { default as globals } from 'globals';
