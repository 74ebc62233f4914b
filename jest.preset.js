// Shared Jest settings. Nest 12 and some of its companions ship as ES modules only; Jest's CommonJS
// runtime cannot require() them, so SWC turns them (and our TypeScript) into CommonJS. SWC keeps the
// decorator metadata Nest's dependency injection reads.
const nxPreset = require('@nx/jest/preset').default;

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  transform: { '^.+\\.[tj]s$': ['@swc/jest', swcOptions] },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|jose)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Hooks and tests that wait on an engine or a disk (removing containers, deleting an 80 MB tree) get
  // time on a loaded machine: a CI run lost a real-tree suite's cleanup to Jest's 5 s default. How fast
  // things are is measured in the bench, not here.
  testTimeout: 60_000,
};
