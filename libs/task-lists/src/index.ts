export { isSeed, MAX_SEED, SAMPLE_MODES, type SampleMode } from './lib/seeded-draw';
export { TaskListError } from './lib/task-list-error';
export { TaskLists, type TaskListReader } from './lib/task-lists';
export { sampleTasks, samplingProblems, type SamplingKey, type TaskSampling } from './lib/task-sampling';
