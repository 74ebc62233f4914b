// Test-only entry point (`@arvo-rca/results/testing`): a task's record and metrics as the specs build them.
export { failedMetrics, taskDraft } from './lib/task-record.testing';
