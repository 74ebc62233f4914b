// Test-only entry point (`@arvo-rca/run-record/testing`): a record's header, a task's evidence and a run directory, as the specs build them.
export { newAssessment, NO_EVIDENCE, scratchRunDir } from './lib/testing/record.testing';
