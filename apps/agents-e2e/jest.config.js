// Both agents run as real processes from their builds (the e2e target builds them first).
module.exports = {
  displayName: 'agents-e2e',
  preset: '../../jest.preset.js',
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testTimeout: 300_000,
};
