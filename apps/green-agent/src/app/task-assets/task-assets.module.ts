import { Module } from '@nestjs/common';
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
export class TaskAssetsModule {}
