// Suites that start Docker engines of their own (a second dockerd over TLS, ...): run apart from the e2e
// target, on machines provisioned for them (root, dockerd, openssl; see tools/engines).
module.exports = {
  displayName: 'agents-engines',
  preset: '../../jest.preset.js',
  testMatch: ['<rootDir>/src/**/*.engines-spec.ts'],
  testTimeout: 300_000,
};
