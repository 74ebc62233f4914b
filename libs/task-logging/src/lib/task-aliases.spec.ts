import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { LoggingHarness } from './logging-harness.testing';
import { TASK_ALIASES_FOLDER } from './task-aliases';
import { WinstonLoggerFactory } from './winston-logger.factory';

const CONTEXT = 'c0ffee00-0000-4000-8000-000000000001';

describe('a task known to the solver by an alias, both agents writing one run directory', () => {
  let harness: LoggingHarness;
  let purple: WinstonLoggerFactory;
  beforeEach(async () => {
    harness = new LoggingHarness();
    await harness.open({ agent: 'green' });
    purple = await WinstonLoggerFactory.open({ agent: 'purple', logDir: join(harness.root, 'logs'), runDir: harness.runDir, level: 'info', console: false });
  });
  afterEach(() => {
    purple.close();
    harness.dispose();
  });

  it("puts the lines the purple agent logs under the alias into the task's own file, and makes no file for the alias", async () => {
    const green = harness.factory.openTask({ taskId: 'sample:1', contextId: CONTEXT, alias: 'task:dc1b52db' });
    green.run(() => harness.factory.createNestLogger().log('sandbox started', 'TaskContextService'));
    await purple.runInTask({ taskId: 'task:dc1b52db', contextId: CONTEXT }, () => purple.createNestLogger().log('solving task:dc1b52db', 'PurpleExecutor'));
    green.run(() => harness.factory.createNestLogger().log('scored', 'TaskContextService'));
    green.end();

    expect(harness.lines('sample_1.log')).toEqual([
      expect.stringMatching(/ green {2}c0ffee00 \[TaskContextService\] sandbox started$/),
      expect.stringMatching(/ purple c0ffee00 \[PurpleExecutor\] solving task:dc1b52db$/),
      expect.stringMatching(/ green {2}c0ffee00 \[TaskContextService\] scored$/),
    ]);
    expect(harness.files()).toEqual(['agents.log', 'sample_1.log', TASK_ALIASES_FOLDER]);
    expect(green.logFile).toBe(join(harness.runDir, 'sample_1.log'));
  });

  it('keeps the alias as the name the purple agent knows the task by', async () => {
    harness.factory.openTask({ taskId: 'sample:1', contextId: CONTEXT, alias: 'task:dc1b52db' }).end();

    const known = await purple.runInTask({ taskId: 'task:dc1b52db', contextId: CONTEXT }, () => purple.currentTask());

    expect(known).toEqual({ taskId: 'task:dc1b52db', contextId: CONTEXT });
    expect(readFileSync(join(harness.runDir, TASK_ALIASES_FOLDER, 'task_dc1b52db'), 'utf8')).toBe('sample:1');
  });

  it('logs under the id it was given when no alias of it is recorded (a purple agent on another disk)', async () => {
    await purple.runInTask({ taskId: 'task:0badc0de', contextId: CONTEXT }, () => purple.createNestLogger().log('solving', 'PurpleExecutor'));

    expect(harness.files()).toEqual(['agents.log', 'task_0badc0de.log']);
  });

  it('refuses an alias that is not <source>:<id> before it touches a path', () => {
    expect(() => harness.factory.openTask({ taskId: 'sample:1', contextId: CONTEXT, alias: '../x:y' })).toThrow(
      expect.objectContaining({ code: 'INVALID_TASK_ID' }),
    );
    expect(harness.files()).toEqual(['agents.log']);
  });
});
