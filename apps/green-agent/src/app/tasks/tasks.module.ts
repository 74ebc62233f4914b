import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ArvoDockerModule, sandboxOptionsFromConfig } from '@arvo-rca/arvo-docker';
import { GroundTruthExtractor } from '@arvo-rca/rca-eval';
import { TaskAssetsModule } from '../task-assets';
import { TaskContextService } from './task-context.service';

/** Everything a task needs: assets, sandboxes and the judge's ground truth (the solver's client comes from the global A2aModule). */
@Module({
  imports: [
    TaskAssetsModule,
    ArvoDockerModule.forRootAsync({ inject: [ConfigService], useFactory: (config: ConfigService) => sandboxOptionsFromConfig(config) }),
  ],
  providers: [
    TaskContextService,
    // One parser runtime per process.
    { provide: GroundTruthExtractor, useFactory: () => GroundTruthExtractor.create() },
  ],
  exports: [TaskContextService],
})
export class TasksModule {}
