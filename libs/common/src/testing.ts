// Test-only entry point (`@arvo-rca/common/testing`): helpers for suites of code built on this library.
export { flakyCall } from './lib/runtime/flaky-call.testing';
export { environValue, liveInGroup, processes, processesNaming, workingFolder } from './lib/runtime/process-probe.testing';
export { scratchFolder } from './lib/testing/scratch-folder.testing';
export { trajectoryOf } from './lib/testing/trajectory.testing';
export { waitUntil } from './lib/runtime/wait-until.testing';
