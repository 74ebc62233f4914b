import { Module } from '@nestjs/common';
import { TaskLists } from '@arvo-rca/task-lists';
import { GreenConfig } from '../green-config';
import { TaskAssetsModule } from '../task-assets';
import { TasksModule } from '../tasks';
import { AssessmentService } from './assessment.service';
import { TaskFetcher } from './task-fetcher';

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule, TaskAssetsModule],
  providers: [
    AssessmentService,
    TaskFetcher,
    { provide: TaskLists, inject: [GreenConfig], useFactory: (config: GreenConfig) => new TaskLists(config.TASK_LISTS_DIR) },
  ],
  // The task sources and lists too: requests are checked against them where they arrive.
  exports: [AssessmentService, TaskLists, TasksModule, TaskAssetsModule],
})
export class AssessmentsModule {}
