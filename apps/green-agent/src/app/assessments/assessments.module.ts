import { Module } from '@nestjs/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { TasksModule } from '../tasks';
import { AssessmentService, RUN_LOG_DIR } from './assessment.service';

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule],
  providers: [
    AssessmentService,
    { provide: RUN_LOG_DIR, inject: [WinstonLoggerFactory], useFactory: (logging: WinstonLoggerFactory) => logging.runDirectory },
  ],
  exports: [AssessmentService, TasksModule],
})
export class AssessmentsModule {}
