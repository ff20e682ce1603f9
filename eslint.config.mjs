// ESLint for every TypeScript folder of the project; formatting is Prettier's (eslint-config-prettier turns off the
// rules it owns). Type-aware, so a promise nobody awaits or handles is an error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'web/.next/**',
      'web/next-env.d.ts',
      '**/generated/**',
      'sdk/python/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // chai asserts through property reads (`expect(x).to.be.empty`).
    files: ['test/**', 'web/test/**', 'sdk/typescript/test/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  prettier,
);
