export { TaskContextService, type TaskOutcome, type TaskProgress } from './task-context.service';
export { TasksModule } from './tasks.module';
