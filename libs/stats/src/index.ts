// The statistics of the project, in one place: its seeded PRNG, the percentile bootstrap of means over
// tasks, and McNemar's exact test for paired 0/1 outcomes.
export { SeededRandom } from './lib/seeded-random';
export { bootstrapMeanIntervals, type BootstrapSettings, type Interval } from './lib/bootstrap';
export { mcnemarExact, type McNemarTest } from './lib/mcnemar';
