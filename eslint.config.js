// Lint: type-aware rules (typescript-eslint) for the TypeScript sources, the plain recommended rules
// for the .mjs/.js scripts; eslint-config-prettier last, so layout is Prettier's alone.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'coverage/', 'src/generated/', 'compat/', 'plugin/', 'test/fixtures/', 'test/e2e/claude-code/'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // tsc already reports undefined names, and knows the DOM globals of src/ui's page script.
      'no-undef': 'off',
      // Control characters are matched on purpose: they are what the sanitisers strip and refuse.
      'no-control-regex': 'off',
      // An async body with no await keeps a synchronous implementation behind an async interface
      // (stores, hooks, commands), and turns its throws into rejections the caller already handles.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore marks a name kept on purpose (a rest sibling left out, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // jq's `error` and `break` unwind the evaluator as a plain value (Raised), not an Error with a stack.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'file', name: 'Raised', path: 'src/core/jq/jq-errors.ts' }] },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // node:test's test/describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after'] },
          ],
        },
      ],
      // Tests read JSON from real processes and files: typing every parsed output is churn for no gain,
      // and an unexpected shape fails the assertion that reads it.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Fixture helpers hand out methods as callbacks (t.after(box.cleanup)); none of them uses `this`.
      '@typescript-eslint/unbound-method': 'off',
      // The patterns mirror column-aligned output, so literal runs of spaces read as the output does.
      'no-regex-spaces': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/ui/assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  prettier,
);
