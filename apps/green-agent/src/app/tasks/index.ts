export { TaskContextService } from './task-context.service';
export { taskRecordDraft, type RanTask } from './ran-task';
export type { TaskOrder } from './task-order';
export { describeProgress, type TaskProgress, type TaskProgressEvent } from './task-progress';
export { TasksModule } from './tasks.module';
export { chooseDialect, SolverDialectChoice, type KnownDialect } from './dialects';
