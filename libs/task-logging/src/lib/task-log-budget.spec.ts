import { Logger } from '@nestjs/common';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { LoggingHarness } from './logging-harness.testing';

const TASK = { taskId: 'arvo:1', contextId: 'c0ffee00-0000-4000-8000-000000000001' };
// A hostile solver's status text, as measured: 60 KB, sent as fast as it can.
const STATUS = 's'.repeat(60_000);

describe('the bounds of what a task writes to its log and the console', () => {
  let harness: LoggingHarness;
  afterEach(() => harness.dispose());

  it('cuts a line longer than LOG_LINE_MAX_BYTES to its head, saying how much it left out, in the file and on the console', async () => {
    harness = new LoggingHarness();
    await harness.open({ bounds: { lineBytes: 4096 } });
    await harness.factory.runInTask(TASK, () => new Logger('Solver').log(`solver working: ${STATUS}`));

    const [line] = harness.lines('arvo_1.log').filter((text) => text.includes('solver working'));
    expect(line.length).toBeLessThan(4096 + 200);
    expect(line).toMatch(/solver working: s+ … \[54\.6 KiB more left out\]$/);
    expect(await harness.consoleOut()).toMatch(/solver working: s+ … \[54\.6 KiB more left out\]\n$/);
  });

  it("counts, and no longer writes, a flooding task's lines past LOG_TASK_MAX_BYTES, and says so once it is reached and once at its end", async () => {
    harness = new LoggingHarness();
    await harness.open({ bounds: { taskBytes: 1024 * 1024 } });
    const logger = new Logger('Solver');
    // 2,000 status texts of 60 KB: 120 MB unbounded.
    await harness.factory.runInTask(TASK, () => {
      for (let i = 0; i < 2000; i++) logger.log(`solver working: ${STATUS}`);
    });

    const file = statSync(join(harness.runDir, 'arvo_1.log')).size;
    expect(file).toBeLessThan(1024 * 1024 + 2 * 61_000);
    expect(Buffer.byteLength(await harness.consoleOut())).toBeLessThan(1024 * 1024 + 2 * 61_000);
    const notes = harness.lines('arvo_1.log').filter((line) => line.includes('[TaskLogging]'));
    expect(notes).toEqual([
      expect.stringMatching(/WARN .*this task's log reached its bound of 1\.0 MiB \(LOG_TASK_MAX_BYTES\): its further lines are counted, not written$/),
      expect.stringMatching(/WARN .*1982 lines \(113\.6 MiB\) of this task were left out of its log, past its bound of 1\.0 MiB \(LOG_TASK_MAX_BYTES\)$/),
    ]);
    expect(await harness.consoleOut()).toContain('1982 lines (113.6 MiB) of this task were left out');
  });

  it("bounds each task on its own: a flooding task leaves its neighbour's lines and the lines outside tasks as they are", async () => {
    harness = new LoggingHarness();
    await harness.open({ bounds: { taskBytes: 256 * 1024 } });
    const logger = new Logger('Worker');
    const neighbour = { taskId: 'arvo:2', contextId: 'c0ffee00-0000-4000-8000-000000000002' };
    await Promise.all([
      harness.factory.runInTask(TASK, async () => {
        for (let i = 0; i < 100; i++) logger.log(`flood ${STATUS}`);
      }),
      harness.factory.runInTask(neighbour, async () => {
        for (let i = 0; i < 100; i++) logger.log(`neighbour line ${i}`);
      }),
    ]);
    logger.log('outside any task');

    expect(harness.lines('arvo_2.log').filter((line) => line.includes('neighbour line'))).toHaveLength(100);
    expect(harness.lines('arvo_2.log').join('\n')).not.toContain('[TaskLogging]');
    expect(harness.lines('agents.log').join('\n')).toContain('outside any task');
    expect(harness.lines('arvo_1.log').filter((line) => line.includes('flood'))).toHaveLength(5);
  });

  it("counts a task's lines logged after its end against its bound too", async () => {
    harness = new LoggingHarness();
    await harness.open({ bounds: { taskBytes: 128 * 1024 } });
    const logger = new Logger('Solver');
    const scope = harness.factory.openTask(TASK);
    scope.run(() => logger.log('while it runs'));
    scope.end();
    scope.run(() => {
      for (let i = 0; i < 50; i++) logger.log(`late ${STATUS}`);
    });

    expect(harness.lines('agents.log').filter((line) => line.includes('late s'))).toHaveLength(3);
    expect(statSync(join(harness.runDir, 'agents.log')).size).toBeLessThan(128 * 1024 + 2 * 61_000);
  });

  it('writes every line when LOG_TASK_MAX_BYTES is 0', async () => {
    harness = new LoggingHarness();
    await harness.open({ bounds: { taskBytes: 0 } });
    const logger = new Logger('Solver');
    await harness.factory.runInTask(TASK, () => {
      for (let i = 0; i < 200; i++) logger.log(`solver working: ${STATUS}`);
    });
    expect(harness.lines('arvo_1.log').filter((line) => line.includes('solver working'))).toHaveLength(200);
  });
});
