export { isListName, NAMED_TASK_LISTS, namedTaskList, type NamedTaskList } from './lib/named-task-lists';
export { drawTasks, isSeed, MAX_SEED, randomSeed, SAMPLE_MODES, type SampleMode } from './lib/seeded-draw';
export { TaskListError, type TaskListErrorCode } from './lib/task-list-error';
export { parseTaskListText, type TaskListText } from './lib/task-list-text';
export { TaskLists, type TaskList, type TaskListReader, type TaskListsOptions } from './lib/task-lists';
export { sampleTasks, samplingProblems, type SampledTasks, type SamplingKey, type TaskSampling } from './lib/task-sampling';
