// Test-only entry point (`@arvo-rca/sandbox/testing`): helpers for suites that need bubblewrap, a real
// tree or a task workspace.
export { describeWithBubblewrap } from './lib/local/bubblewrap-gate.testing';
export { describeWithRealTree, layOutRealTask } from './lib/real-tree-gate.testing';
export { makeTaskWorkspace, peakRssGrowth, settledWithin } from './lib/sandbox-fixtures.testing';
