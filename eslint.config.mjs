import nx from '@nx/eslint-plugin';
import prettier from 'eslint-plugin-prettier/recommended';

/** Which libs a project's files may import: `libTypes` are the lib types allowed (test doubles only in tests). */
function moduleBoundaries(libTypes) {
  return [
    'error',
    {
      enforceBuildableLibDependency: true,
      // Root configs shared by the projects: the lint config, and the apps' webpack build.
      allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$', '^.*/webpack\\.preset$'],
      depConstraints: [
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: libTypes },
        { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: libTypes },
        { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: libTypes },
        { sourceTag: 'type:lib', onlyDependOnLibsWithTags: libTypes },
        // A test double may use the libs it stands beside.
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
        { sourceTag: 'scope:green', onlyDependOnLibsWithTags: ['scope:green', 'scope:shared'] },
        { sourceTag: 'scope:purple', onlyDependOnLibsWithTags: ['scope:purple', 'scope:shared'] },
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
        // End-to-end suites drive the whole system.
        { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:green', 'scope:purple', 'scope:shared'] },
      ],
    },
  ];
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/node_modules', 'logs', 'samples/*/source'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      // Apps never import each other; libs are shared through their index.ts only.
      '@nx/enforce-module-boundaries': moduleBoundaries(['type:lib']),
      '@typescript-eslint/no-explicit-any': 'error',
      // Configuration classes annotate their fields: class-transformer reads the types from decorator metadata.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreProperties: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Test doubles (libs tagged type:testing, such as fake-llm) are for tests: production code cannot import them.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.testing.ts', 'apps/agents-e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(['type:lib', 'type:testing']) },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Formatting is Prettier's (.prettierrc.json, 160 columns): a file it would change fails lint.
  prettier,
];
