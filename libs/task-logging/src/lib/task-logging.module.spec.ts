import { Injectable, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { descriptorsUnder } from './log-processes.testing';
import { TASK_LOGGING_OPTIONS, TaskLoggingModule } from './task-logging.module';
import { WinstonLoggerFactory } from './winston-logger.factory';

@Injectable()
class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);

  constructor(private readonly logging: WinstonLoggerFactory) {}

  run(taskId: string, contextId: string): Promise<void> {
    return this.logging.runInTask({ taskId, contextId }, async () => {
      this.logger.log('task started');
      await sleep(5);
      this.logger.log('task scored');
    });
  }
}

@Module({ providers: [TaskRunner] })
class TaskFeatureModule {}

describe('TaskLoggingModule in a Nest app', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'task-logging-nest-'))));
  afterEach(() => {
    Logger.overrideLogger(false);
    rmSync(root, { recursive: true, force: true });
  });

  const rootModule = (logDir: string) => ({
    module: class AgentModule {},
    imports: [
      TaskLoggingModule.forRoot({ useFactory: () => ({ agent: 'purple' as const, logDir, level: 'info' as const, console: false as const }) }),
      TaskFeatureModule,
    ],
  });

  it("is the whole app logger: Nest's own boot lines go to agents.log, task lines to the task file", async () => {
    const app = await NestFactory.createApplicationContext(rootModule(join(root, 'logs')), { bufferLogs: true, abortOnError: false });
    const logging = app.get(WinstonLoggerFactory);
    app.useLogger(logging.createNestLogger());

    await Promise.all([app.get(TaskRunner).run('sample:2', 'aaaaaaaa-1'), app.get(TaskRunner).run('sample:3', 'bbbbbbbb-2')]);
    await app.close();

    expect(logging.runDirectory).toMatch(new RegExp(`^${join(root, 'logs')}/log_\\d{4}-\\d\\d-\\d\\d_\\d\\d-\\d\\d-\\d\\d$`));
    expect(readdirSync(logging.runDirectory).sort()).toEqual(['agents.log', 'sample_2.log', 'sample_3.log']);
    const agentsLog = readFileSync(join(logging.runDirectory, 'agents.log'), 'utf8');
    expect(agentsLog).toMatch(/INFO {2}purple - {8}\[NestFactory\] Starting Nest application\.\.\./);
    expect(agentsLog).toMatch(/\[InstanceLoader\] TaskLoggingModule dependencies initialized/);
    expect(agentsLog).not.toContain('task started');
    expect(readFileSync(join(logging.runDirectory, 'sample_3.log'), 'utf8')).toMatch(
      /^.* purple bbbbbbbb \[TaskRunner\] task started\n.* purple bbbbbbbb \[TaskRunner\] task scored\n$/,
    );
    expect(descriptorsUnder(root)).toEqual([]);
  });

  it('stops the app at boot with LOG_DIR_UNWRITABLE when LOG_DIR cannot be written', async () => {
    writeFileSync(join(root, 'a-file'), '');
    const logDir = join(root, 'a-file', 'logs');

    const boot = NestFactory.createApplicationContext(rootModule(logDir), { logger: false, abortOnError: false });

    await expect(boot).rejects.toMatchObject({ code: 'LOG_DIR_UNWRITABLE' });
    await expect(boot).rejects.toThrow(`cannot write logs in ${logDir} (LOG_DIR): ENOTDIR: not a directory`);
  });

  it("hands out the options it was given, and the run's trajectories/ and results/ directories", async () => {
    const app = await NestFactory.createApplicationContext(rootModule(join(root, 'logs')), { logger: false });
    const logging = app.get(WinstonLoggerFactory);

    expect(app.get(TASK_LOGGING_OPTIONS)).toMatchObject({ agent: 'purple', level: 'info' });
    expect(await logging.runSubdirectory('trajectories')).toBe(join(logging.runDirectory, 'trajectories'));
    expect(await logging.runSubdirectory('results')).toBe(join(logging.runDirectory, 'results'));
    expect(readdirSync(logging.runDirectory).sort()).toEqual(['agents.log', 'results', 'trajectories']);
    await app.close();
  });
});
