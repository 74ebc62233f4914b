// Test-only entry point (`@arvo-rca/common/testing`): helpers for suites of code built on this library.
export { flakyCall } from './lib/runtime/flaky-call.testing';
