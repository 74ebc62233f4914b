import { Module } from '@nestjs/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { TaskAssetsModule } from '../task-assets';
import { TasksModule } from '../tasks';
import { AssessmentService, RUN_LOG_DIR } from './assessment.service';

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule, TaskAssetsModule],
  providers: [
    AssessmentService,
    { provide: RUN_LOG_DIR, inject: [WinstonLoggerFactory], useFactory: (logging: WinstonLoggerFactory) => logging.runDirectory },
  ],
  // The task sources too: requests are checked against them where they arrive.
  exports: [AssessmentService, TasksModule, TaskAssetsModule],
})
export class AssessmentsModule {}
