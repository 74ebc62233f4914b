// A process of its own for the extraction tests that measure time, memory and signals as the agent would
// see them, outside Jest's sandbox (which slows node-tar's parser several times). Run with tsx by
// extraction-process.testing.ts:
//   extract <archive> <targetDir>   extracts at the default limits; prints {"seconds", "rssBeforeMB", "maxRssMB"}
//   prepare <taskId>                TaskAssetsModule configured from the environment, with Nest's shutdown
//                                   hooks, prepares the task; prints "preparing", then "ready" or
//                                   "failed <code>"; on SIGTERM it waits for the task as the tasks service does
import 'reflect-metadata';
import { Inject, Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfigModule } from '@arvo-rca/agent-app';
import { GreenConfig } from '../../green-config';
import { ArchiveExtractor } from './archive-extractor';
import { TaskAssetsError } from '../task-assets.errors';
import { TaskAssetsModule } from '../task-assets.module';
import { TaskAssetsService } from '../task-assets.service';

@Injectable()
class TaskRunner implements BeforeApplicationShutdown {
  private running: Promise<void> | undefined;

  // Named: tsx emits no decorator metadata.
  constructor(@Inject(TaskAssetsService) private readonly assets: TaskAssetsService) {}

  start(task: string): void {
    process.stdout.write('preparing\n');
    this.running = this.assets.prepare(this.assets.parse(task)).then(
      () => void process.stdout.write('ready\n'),
      (error: unknown) => void process.stdout.write(`failed ${error instanceof TaskAssetsError ? error.code : String(error)}\n`),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.running;
  }
}

@Module({
  imports: [AppConfigModule.forRoot(GreenConfig, { ignoreEnvFile: true }), TaskAssetsModule],
  providers: [TaskRunner],
})
class ChildModule {}

async function extract(archive: string, targetDir: string): Promise<void> {
  const rssBeforeMB = process.memoryUsage().rss / 1024 ** 2;
  const started = Date.now();
  await new ArchiveExtractor().extract(archive, targetDir, 'src-vul');
  const result = { seconds: (Date.now() - started) / 1000, rssBeforeMB, maxRssMB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function prepare(task: string): Promise<void> {
  const app = await NestFactory.createApplicationContext(ChildModule, { logger: false });
  app.enableShutdownHooks();
  app.get(TaskRunner).start(task);
}

const [mode, ...args] = process.argv.slice(2);
const run = mode === 'extract' ? extract(args[0], args[1]) : prepare(args[0]);
run.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
