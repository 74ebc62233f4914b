// Test-only entry point (`@arvo-rca/common/testing`): helpers for suites of code built on this library.
export { flakyCall } from './lib/flaky-call.testing';
export { environValue, liveInGroup, processes, processesNaming, workingFolder } from './lib/process-probe.testing';
export { waitUntil } from './lib/wait-until.testing';
