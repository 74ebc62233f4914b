import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { GreenEnvironment } from '../green-environment';
import { ArchiveExtractor } from './archive-extractor';
import { HttpFetcher } from './http-fetcher';
import { TASK_ASSETS_OPTIONS, taskAssetsOptionsFrom, type TaskAssetsOptions } from './task-assets.options';
import { TaskAssetsService } from './task-assets.service';
import { TaskFileSystem } from './task-file-system';

/** Provides TaskAssetsService, configured from the (global) ConfigModule. */
@Module({
  providers: [
    HttpFetcher,
    TaskFileSystem,
    ArchiveExtractor,
    {
      provide: TASK_ASSETS_OPTIONS,
      inject: [ConfigService],
      useFactory: (config: ConfigService<GreenEnvironment, true>): TaskAssetsOptions =>
        taskAssetsOptionsFrom({
          TMP_DIR: config.get('TMP_DIR', { infer: true }),
          CACHE_DIR: config.get('CACHE_DIR', { infer: true }),
          ARVO_DATA_URL: config.get('ARVO_DATA_URL', { infer: true }),
          SAMPLES_DIR: config.get('SAMPLES_DIR', { infer: true }),
          ARCHIVE_MAX_BYTES: config.get('ARCHIVE_MAX_BYTES', { infer: true }),
          ARCHIVE_MAX_ENTRIES: config.get('ARCHIVE_MAX_ENTRIES', { infer: true }),
          ARCHIVE_MAX_FILE_BYTES: config.get('ARCHIVE_MAX_FILE_BYTES', { infer: true }),
        }),
    },
    {
      provide: TaskAssetsService,
      inject: [TASK_ASSETS_OPTIONS, HttpFetcher, TaskFileSystem, ArchiveExtractor],
      useFactory: (options: TaskAssetsOptions, http: HttpFetcher, files: TaskFileSystem, archives: ArchiveExtractor) =>
        new TaskAssetsService(options, { http, files, archives }),
    },
  ],
  exports: [TaskAssetsService],
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
