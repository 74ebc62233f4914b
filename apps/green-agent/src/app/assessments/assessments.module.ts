import { Module } from '@nestjs/common';
import { TaskAssetsModule } from '../task-assets';
import { TasksModule } from '../tasks';
import { AssessmentService } from './assessment.service';
import { TaskFetcher } from './task-fetcher';

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule, TaskAssetsModule],
  providers: [AssessmentService, TaskFetcher],
  // The task sources too: requests are checked against them where they arrive.
  exports: [AssessmentService, TasksModule, TaskAssetsModule],
})
export class AssessmentsModule {}
