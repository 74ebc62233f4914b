import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { GreenEnvironment } from '../green-environment';
import { TasksModule } from '../tasks';
import { AssessmentService, RUN_LOG_DIR } from './assessment.service';

/** Assessments of many tasks, on top of the single-task machinery. */
@Module({
  imports: [TasksModule],
  providers: [
    AssessmentService,
    {
      provide: RUN_LOG_DIR,
      inject: [ConfigService],
      useFactory: (config: ConfigService<GreenEnvironment, true>) => config.get('LOG_RUN_DIR', { infer: true }) ?? config.get('LOG_DIR', { infer: true }),
    },
  ],
  exports: [AssessmentService, TasksModule],
})
export class AssessmentsModule {}
