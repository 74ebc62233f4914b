// Test-only entry point (`@arvo-rca/run-record/testing`): a record's header and a task's evidence as the specs build them.
export { newAssessment, NO_EVIDENCE } from './lib/testing/record.testing';
