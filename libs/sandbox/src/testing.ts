// Test-only entry point (`@arvo-rca/sandbox/testing`): helpers for suites that need an engine or bubblewrap.
export { describeWithBubblewrap } from './lib/bubblewrap-gate.testing';
export { describeWithDocker } from './lib/docker-gate.testing';
export { describeWithRealTree, layOutRealTask, realTreeCache } from './lib/real-tree-gate.testing';
