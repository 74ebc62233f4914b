import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ArvoDockerModule, sandboxOptionsFromConfig } from '@arvo-rca/arvo-docker';
import { GroundTruthExtractor } from '@arvo-rca/rca-eval';
import { TaskAssetsModule } from '../task-assets';
import { GreenExecutor } from './green.executor';
import { TaskContextService } from './task-context.service';

/** Everything a task needs: assets, sandboxes and the judge's ground truth (the solver's client comes from the global A2aModule). */
@Module({
  imports: [
    TaskAssetsModule,
    ArvoDockerModule.forRootAsync({ inject: [ConfigService], useFactory: (config: ConfigService) => sandboxOptionsFromConfig(config) }),
  ],
  providers: [
    TaskContextService,
    GreenExecutor,
    // One parser runtime per process.
    { provide: GroundTruthExtractor, useFactory: () => GroundTruthExtractor.create() },
  ],
  exports: [GreenExecutor, TaskContextService],
})
export class TasksModule {}
