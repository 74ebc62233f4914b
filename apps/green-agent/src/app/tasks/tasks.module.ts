import { Module } from '@nestjs/common';
import { ArvoDockerModule } from '@arvo-rca/arvo-docker';
import { GroundTruthExtractor } from '@arvo-rca/rca-eval';
import { GreenConfig } from '../green-config';
import { TaskAssetsModule } from '../task-assets';
import { sandboxOptionsOf } from './sandbox/sandbox-options';
import { TaskContextService } from './task-context.service';

/** Everything a task needs: assets, sandboxes and the judge's ground truth (the solver's client comes from the global A2aModule). */
@Module({
  imports: [TaskAssetsModule, ArvoDockerModule.forRootAsync({ inject: [GreenConfig], useFactory: sandboxOptionsOf })],
  providers: [
    TaskContextService,
    // One parser runtime per process.
    { provide: GroundTruthExtractor, useFactory: () => GroundTruthExtractor.create() },
  ],
  // The Docker module too: assessments tell its NeededImages which images their remaining tasks need.
  exports: [TaskContextService, ArvoDockerModule],
})
export class TasksModule {}
