// Test-only entry point (`@arvo-rca/arvo-docker/testing`): helpers for suites that need an engine.
export { describeWithDocker } from './lib/docker-gate.testing';
