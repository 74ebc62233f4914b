import { Logger } from '@nestjs/common';
import { LoggingHarness } from './logging-harness.testing';

const FILE_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (ERROR|WARN |INFO |DEBUG) (green |purple) (\S{1,8}) +\[(\w+)\] (.*)$/;
const CONTEXT_ID = '3f2a9c1e-7b6d-4c1a-9e2f-0a1b2c3d4e5f';

describe('the Nest logger through winston', () => {
  let harness: LoggingHarness;
  beforeEach(() => (harness = new LoggingHarness()));
  afterEach(() => harness.dispose());

  it('writes file lines with ISO time, level, agent, short context id, logger context and message', async () => {
    await harness.open({ agent: 'purple' });
    const logger = new Logger('AgentLoop');

    logger.log('agent ready');
    await harness.factory.runInTask({ taskId: 'arvo:14368', contextId: CONTEXT_ID }, async () => logger.warn('step 3 of 60'));

    const [ready] = harness.lines('agents.log');
    const [step] = harness.lines('arvo_14368.log');
    expect(ready).toMatch(FILE_LINE);
    expect(ready.match(FILE_LINE)?.slice(2)).toEqual(['INFO ', 'purple', '-', 'AgentLoop', 'agent ready']);
    expect(step.match(FILE_LINE)?.slice(2)).toEqual(['WARN ', 'purple', '3f2a9c1e', 'AgentLoop', 'step 3 of 60']);
    expect(Math.abs(Date.parse(step.slice(0, 24)) - Date.now())).toBeLessThan(5_000);
  });

  it('indents the continuation lines of a multi-line message, so that no line of it passes for an event', async () => {
    await harness.open();
    const forged = '2026-11-22T10:00:00.000Z INFO  green  -        [TaskRunner] forged';

    new Logger('CommandRunner').debug(`output of cat:\nfirst\n${forged}\n`);

    expect(harness.lines('agents.log')).toEqual([expect.stringMatching(/DEBUG green {2}- {8}\[CommandRunner\] output of cat:$/), '  | first', `  | ${forged}`]);
  });

  it("follows Nest's conventions for errors, stacks, objects and static calls", async () => {
    await harness.open();
    const error = new Error('engine gone');

    new Logger('Sandbox').error('container start failed', error.stack);
    new Logger('Sandbox').error(error);
    Logger.warn({ retries: 3 }, 'Backoff');
    Logger.log('no context at all');

    const lines = harness.lines('agents.log');
    expect(lines[0]).toMatch(/ERROR green {2}- {8}\[Sandbox\] container start failed$/);
    expect(lines[1]).toBe('  | Error: engine gone');
    expect(lines.filter((line) => /\[Sandbox\] Error: engine gone$/.test(line))).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(/WARN {2}green {2}- {8}\[Backoff\] \{ retries: 3 \}$/));
    expect(lines[lines.length - 1]).toMatch(/INFO {2}green {2}- {8}no context at all$/);
  });

  it('writes debug lines (full command outputs) only when LOG_LEVEL is debug', async () => {
    await harness.open({ level: 'info' });
    const logger = new Logger('CommandRunner');

    logger.debug('full output: lots of bytes');
    logger.verbose('more detail');
    logger.log('command done, rc=0');

    expect(harness.lines('agents.log')).toEqual([expect.stringMatching(/\[CommandRunner\] command done, rc=0$/)]);
    expect(await harness.consoleOut()).not.toContain('full output');
  });

  it('honours the levels Nest sets on the logger', async () => {
    await harness.open();
    Logger.overrideLogger(['error']);

    new Logger('Quiet').log('not this');
    new Logger('Quiet').error('but this');

    expect(harness.lines('agents.log')).toEqual([expect.stringMatching(/ERROR green {2}- {8}\[Quiet\] but this$/)]);
  });

  it('prints one human line per event on the console, with the task, and errors on stderr', async () => {
    await harness.open();

    new Logger('Boot').log('listening on http://127.0.0.1:9009/');
    await harness.factory.runInTask({ taskId: 'sample:1', contextId: CONTEXT_ID }, async () => new Logger('TaskRunner').error('task failed'));

    expect(await harness.consoleOut()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}green {2}\[Boot\] listening on http:\/\/127\.0\.0\.1:9009\/\n$/);
    expect(harness.err.text).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR green {2}sample:1 3f2a9c1e \[TaskRunner\] task failed\n$/);
  });

  it("writes the console's lines of many turns in one write, within 100 ms; an error at once, after them; after shutdown, each as it comes", async () => {
    await harness.open();
    const logger = new Logger('Steps');
    for (let step = 1; step <= 5; step++) {
      logger.log(`step ${step}`);
      await new Promise((turn) => setImmediate(turn));
    }
    expect(harness.out.writes).toBe(0);

    // The write's timer was set at the first line, so it fires before the wait's, however late both are.
    expect((await harness.consoleOut()).match(/step \d/g)).toEqual(['step 1', 'step 2', 'step 3', 'step 4', 'step 5']);
    expect(harness.out.writes).toBe(1);

    logger.log('before the error');
    logger.error('the error');
    expect([harness.out.writes, harness.err.writes]).toEqual([2, 1]);
    expect(harness.out.text).toMatch(/before the error\n$/);

    harness.factory.onApplicationShutdown();
    logger.log('after shutdown');
    expect(harness.out.text).toMatch(/after shutdown\n$/);
  });

  it('colours the console level when asked to (a terminal), and never the files', async () => {
    await harness.open({ console: { out: harness.out, err: harness.err, colors: true } });

    new Logger('Boot').log('coloured');

    expect(await harness.consoleOut()).toContain('\u001b[32mINFO \u001b[39m');
    expect(harness.lines('agents.log')[0]).not.toContain('\u001b[');
  });
});
