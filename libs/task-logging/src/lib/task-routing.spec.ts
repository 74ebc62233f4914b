import { Logger } from '@nestjs/common';
import { randomInt, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoggingHarness } from './logging-harness.testing';
import { descriptorsUnder, openDescriptorCount } from './log-processes.testing';

const TASKS = 50;
const LINES = 100;

// Ways a task's code gets control back, each of which must keep the task's scope.
const VIA: Array<(fn: () => void) => Promise<void>> = [
  (fn) => new Promise((done) => setTimeout(() => (fn(), done()), randomInt(4))),
  (fn) => new Promise((done) => setImmediate(() => (fn(), done()))),
  (fn) =>
    pipeline(
      Readable.from(['chunk']),
      new Transform({ objectMode: true, transform: (chunk, _encoding, next) => (fn(), next(null, chunk)) }),
      new Writable({ objectMode: true, write: (_chunk, _encoding, next) => next() }),
    ),
  (fn) => {
    const events = new EventEmitter();
    const emitted = new Promise<void>((done) => events.once('line', () => (fn(), done())));
    process.nextTick(() => events.emit('line'));
    return emitted;
  },
  (fn) => new Promise((done) => readFile(__filename, () => (fn(), done()))),
  async (fn) => {
    await sleep(randomInt(3));
    fn();
  },
];

describe('per-task routing by async context', () => {
  let harness: LoggingHarness;
  beforeEach(async () => {
    harness = new LoggingHarness();
    await harness.open();
  });
  afterEach(() => harness.dispose());

  it('puts every line of 50 concurrent tasks into its own task file and in no other, and none into agents.log', async () => {
    const logger = new Logger('Worker');
    const outside = setInterval(() => logger.log('tick outside any task'), 1);
    const runTask = (i: number): Promise<void> =>
      harness.factory.runInTask({ taskId: `arvo:${1000 + i}`, contextId: randomUUID() }, async () => {
        await sleep(randomInt(20));
        for (let line = 0; line < LINES; line++) await VIA[(i + line) % VIA.length](() => logger.log(`task ${i} line ${line}`));
      });
    try {
      await Promise.all(Array.from({ length: TASKS }, (_, i) => runTask(i)));
    } finally {
      clearInterval(outside);
    }

    expect(harness.files()).toEqual(['agents.log', ...Array.from({ length: TASKS }, (_, i) => `arvo_${1000 + i}.log`)].sort());
    for (let i = 0; i < TASKS; i++) {
      const messages = harness.lines(`arvo_${1000 + i}.log`).map((line) => line.replace(/^.*\[Worker\] /, ''));
      expect(messages).toEqual(Array.from({ length: LINES }, (_, line) => `task ${i} line ${line}`));
    }
    const agentsLog = harness.lines('agents.log');
    expect(agentsLog.filter((line) => line.includes('task '))).toEqual([]);
    expect(agentsLog.filter((line) => line.endsWith('tick outside any task')).length).toBeGreaterThan(0);
  });

  it('shares one file between two concurrent tasks on the same id, telling them apart by context id', async () => {
    const logger = new Logger('Worker');
    const first = harness.factory.openTask({ taskId: 'sample:1', contextId: 'aaaaaaaa-0000-4000-8000-000000000001' });
    const second = harness.factory.openTask({ taskId: 'sample:1', contextId: 'bbbbbbbb-0000-4000-8000-000000000002' });
    const talk = (scope: typeof first, name: string, from: number, count: number): Promise<void> =>
      scope.run(async () => {
        for (let line = from; line < from + count; line++) await VIA[line % VIA.length](() => logger.log(`${name} ${line}`));
      });

    await Promise.all([talk(first, 'first', 0, LINES), talk(second, 'second', 0, LINES)]);
    first.end();
    await talk(second, 'second', LINES, 20);
    const openWhileSecondRuns = descriptorsUnder(harness.runDir).filter((path) => path.endsWith('sample_1.log'));
    second.end();

    const lines = harness.lines('sample_1.log');
    expect(lines).toHaveLength(2 * LINES + 20);
    expect(lines.filter((line) => / aaaaaaaa \[Worker\] first \d+$/.test(line))).toHaveLength(LINES);
    expect(lines.filter((line) => / bbbbbbbb \[Worker\] second \d+$/.test(line))).toHaveLength(LINES + 20);
    expect(openWhileSecondRuns).toHaveLength(1);
    expect(descriptorsUnder(harness.runDir).filter((path) => path.endsWith('sample_1.log'))).toEqual([]);
  });

  it('closes a task file when the task ends, back to the baseline of open descriptors, and never reopens it', async () => {
    const logger = new Logger('Worker');
    const baseline = openDescriptorCount();
    const scopes = Array.from({ length: TASKS }, (_, i) => harness.factory.openTask({ taskId: `arvo:${i}`, contextId: randomUUID() }));
    let late: Promise<void> = Promise.resolve();
    scopes.forEach((scope, i) =>
      scope.run(() => {
        logger.log(`task ${i} starts`);
        if (i === 7) late = sleep(50).then(() => logger.log('task 7 timer fired after the end'));
      }),
    );
    expect(descriptorsUnder(harness.runDir)).toHaveLength(TASKS + 1);
    expect(openDescriptorCount()).toBe(baseline + TASKS);

    scopes.forEach((scope) => scope.end());
    expect(openDescriptorCount()).toBe(baseline);
    expect(descriptorsUnder(harness.runDir).map((path) => path.slice(harness.runDir.length + 1))).toEqual(['agents.log']);

    const before = harness.lines('arvo_7.log');
    await late;
    scopes[7].run(() => logger.log('run again after the end'));

    expect(harness.lines('arvo_7.log')).toEqual(before);
    expect(openDescriptorCount()).toBe(baseline);
    expect(harness.lines('agents.log').filter((line) => line.includes('(after the end of task arvo:7)'))).toEqual([
      expect.stringMatching(/\[Worker\] \(after the end of task arvo:7\) task 7 timer fired after the end$/),
      expect.stringMatching(/\[Worker\] \(after the end of task arvo:7\) run again after the end$/),
    ]);
  });

  it('ends a task run through runInTask however its function finishes', async () => {
    const failing = harness.factory.runInTask({ taskId: 'arvo:9', contextId: randomUUID() }, async () => {
      new Logger('Worker').error('about to fail');
      throw new Error('task failed');
    });

    await expect(failing).rejects.toThrow('task failed');
    expect(descriptorsUnder(harness.runDir).some((path) => path.endsWith('arvo_9.log'))).toBe(false);
    expect(harness.lines('arvo_9.log')).toEqual([expect.stringMatching(/ERROR green +\S+ \[Worker\] about to fail$/)]);
  });

  it('knows the current task inside a scope and none outside', async () => {
    const ref = { taskId: 'sample:3', contextId: randomUUID() };

    const inside = await harness.factory.runInTask(ref, async () => {
      await sleep(1);
      return harness.factory.currentTask();
    });

    expect(inside).toEqual(ref);
    expect(harness.factory.currentTask()).toBeUndefined();
  });

  it('refuses a task id that is not <source>:<id> before it touches a path', () => {
    expect(() => harness.factory.openTask({ taskId: '../../etc:passwd', contextId: 'x' })).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID' }));
    expect(harness.files()).toEqual(['agents.log']);
  });
});
