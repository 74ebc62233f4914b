import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { GreenConfig } from '../green-config';
import { ArchiveExtractor } from './archive/archive-extractor';
import { HttpFetcher } from './download/http-fetcher';
import { NeededTaskData } from './download/needed-task-data';
import { TASK_ASSETS_OPTIONS, taskAssetsOptionsFrom, type TaskAssetsOptions } from './task-assets.options';
import { TaskAssetsService } from './task-assets.service';
import { TaskFileSystem } from './task-file-system';

/** Provides TaskAssetsService, configured from the app's (global) configuration, and the NeededTaskData its budget keeps. */
@Module({
  providers: [
    HttpFetcher,
    TaskFileSystem,
    ArchiveExtractor,
    NeededTaskData,
    {
      provide: TASK_ASSETS_OPTIONS,
      inject: [GreenConfig],
      useFactory: taskAssetsOptionsFrom,
    },
    {
      provide: TaskAssetsService,
      inject: [TASK_ASSETS_OPTIONS, HttpFetcher, TaskFileSystem, ArchiveExtractor, NeededTaskData],
      useFactory: (options: TaskAssetsOptions, http: HttpFetcher, files: TaskFileSystem, archives: ArchiveExtractor, needed: NeededTaskData) =>
        new TaskAssetsService(options, { http, files, archives }, needed),
    },
  ],
  // NeededTaskData too: assessments tell it which tasks' data their remaining tasks need.
  exports: [TaskAssetsService, NeededTaskData],
})
export class TaskAssetsModule implements OnModuleDestroy {
  constructor(@Inject(TaskAssetsService) private readonly assets: TaskAssetsService) {}

  /**
   * Nest runs every onModuleDestroy before any beforeApplicationShutdown: extractions stop here, before the
   * tasks service waits (within its grace) for the tasks to end, so none of them waits on an archive.
   */
  onModuleDestroy(): void {
    this.assets.abortExtractions();
  }
}
