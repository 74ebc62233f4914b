import nx from '@nx/eslint-plugin';
import prettier from 'eslint-plugin-prettier/recommended';

/**
 * The library floors, lowest first. 1: what needs nothing of ours (common, stats). 2: what stands on it alone
 * (results, loc-json, task-lists, task-logging, fake-llm, and the sandbox, which owns what a command's result
 * and an image's pull are). 3: the run record (with the files a green agent sends of it), the judge (rca-eval)
 * and the A2A vocabulary (a2a-protocol), which formats the sandbox's results. 4: what builds on the vocabulary
 * (arvo-docker, agent-app). Apps stand above them all.
 */
const FLOORS = ['floor:1', 'floor:2', 'floor:3', 'floor:4'];

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
        { sourceTag: 'scope:viewer', onlyDependOnLibsWithTags: ['scope:viewer', 'scope:shared'] },
        // End-to-end suites drive the whole system.
        { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:green', 'scope:purple', 'scope:shared'] },
        // The libraries stand in floors, each on the ones below it only: a lib never imports its own floor or one above.
        ...FLOORS.map((floor, at) => ({ sourceTag: floor, onlyDependOnLibsWithTags: FLOORS.slice(0, at) })),
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
