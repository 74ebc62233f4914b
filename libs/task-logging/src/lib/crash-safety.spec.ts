import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggingHarness } from './logging-harness.testing';
import { CHILD_TASK_LINES, LogChild } from './log-processes.testing';

jest.setTimeout(120_000);

describe('lines on disk when the log call returns', () => {
  let harness: LoggingHarness;
  afterEach(() => harness.dispose());

  it('has each line in its file before the log call returns, from the very first one on', async () => {
    harness = new LoggingHarness();
    await harness.open();
    const logger = new Logger('Worker');
    const scope = harness.factory.openTask({ taskId: 'arvo:1', contextId: 'c0ffee00' });
    const taskLog = join(harness.runDir, 'arvo_1.log');

    for (let i = 0; i < 500; i++) {
      const before = statSync(taskLog).size;
      scope.run(() => logger.log(`line ${i}`));
      expect(readFileSync(taskLog, 'utf8').slice(before)).toMatch(new RegExp(` line ${i}\n$`));
    }
  });
});

describe('a process killed with SIGKILL', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'task-logging-kill-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const expectEveryLine = (runDir: string, last: string): void => {
    const taskLines = readFileSync(join(runDir, 'arvo_7.log'), 'utf8').split('\n').filter(Boolean);
    expect(taskLines.map((line) => line.replace(/^.*\[Child\] /, ''))).toEqual([...Array.from({ length: CHILD_TASK_LINES }, (_, i) => `task line ${i}`), last]);
    expect(readFileSync(join(runDir, 'agents.log'), 'utf8')).toMatch(/\[Child\] agent up\n$/);
  };

  it('keeps every line logged before it killed itself, the last one logged right before the kill', async () => {
    const child = new LogChild(['kill-self', root]);

    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expectEveryLine(root, 'last line, then SIGKILL');
  });

  it('keeps every line logged before its last await when killed from outside', async () => {
    const child = new LogChild(['kill-waiting', root]);
    await child.line(/^ready$/);
    child.process.kill('SIGKILL');

    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expectEveryLine(root, 'last line, then waiting');
  });
});

describe("the console's lines, which wait up to 100 ms to go out together", () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'task-logging-console-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const consoleLines = (child: LogChild): string[] => child.lines().map((line) => line.replace(/^.*\[Child\] /, ''));
  const numbered = Array.from({ length: CHILD_TASK_LINES }, (_, i) => `console line ${i}`);

  it('are all out when the process calls exit right after logging', async () => {
    const child = new LogChild(['console-exit', root]);

    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.closed;
    expect(consoleLines(child)).toEqual([...numbered, 'last line, then exit']);
  });

  it("are all out, the shutdown's own too, when the process ends by the signal it got, as Nest ends it", async () => {
    const child = new LogChild(['console-signal', root]);

    expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
    await child.closed;
    expect(consoleLines(child)).toEqual([...numbered, 'last line before the signal', 'shutting down', 'shut down']);
  });
});
