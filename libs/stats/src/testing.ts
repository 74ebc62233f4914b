// Test-only entry point (`@arvo-rca/stats/testing`): the independent Python computation the specs compare with.
export { referenceIntervals, referencePairedIntervals } from './lib/bootstrap-reference.testing';
