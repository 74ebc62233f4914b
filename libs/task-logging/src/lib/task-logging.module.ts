import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import { WinstonLoggerFactory, type TaskLoggingOptions } from './winston-logger.factory';

export const TASK_LOGGING_OPTIONS = Symbol('TASK_LOGGING_OPTIONS');

/** How the app builds the options, usually from its validated configuration. */
type TaskLoggingModuleOptions = Omit<FactoryProvider<TaskLoggingOptions | Promise<TaskLoggingOptions>>, 'provide'>;

/**
 * Provides the process's WinstonLoggerFactory to the whole app (global), opened before anything
 * else can log to it and closed at application shutdown.
 */
@Module({})
export class TaskLoggingModule {
  static forRoot(options: TaskLoggingModuleOptions): DynamicModule {
    return {
      module: TaskLoggingModule,
      global: true,
      providers: [
        { provide: TASK_LOGGING_OPTIONS, ...options },
        { provide: WinstonLoggerFactory, inject: [TASK_LOGGING_OPTIONS], useFactory: (resolved: TaskLoggingOptions) => WinstonLoggerFactory.open(resolved) },
      ],
      exports: [WinstonLoggerFactory],
    };
  }
}
