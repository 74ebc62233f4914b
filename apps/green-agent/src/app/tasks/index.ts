export { TaskContextService, type TaskOutcome } from './task-context.service';
export { describeProgress, type TaskProgress, type TaskProgressEvent } from './task-progress';
export { TasksModule } from './tasks.module';
