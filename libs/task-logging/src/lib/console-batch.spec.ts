import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BatchedConsoleStream } from './console-batch';
import { LogChild } from './log-processes.testing';
import { LoggingHarness } from './logging-harness.testing';

/** A real stream that keeps each write it is given, as it was given. */
class WriteRecorder extends Writable {
  readonly writes: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push(chunk.toString('utf8'));
    done();
  }
}

describe('the console, a turn of the event loop at a time', () => {
  let harness: LoggingHarness;
  let stream: BatchedConsoleStream;
  afterEach(() => {
    stream?.close();
    harness?.dispose();
  });

  it('writes the lines logged in one turn as one write, in the order they were logged', async () => {
    const target = new WriteRecorder();
    stream = new BatchedConsoleStream(target);
    harness = new LoggingHarness();
    await harness.open({ console: { out: stream, err: harness.err, colors: false } });

    const logger = new Logger('Runner');
    for (let i = 0; i < 50; i++) logger.log(`line ${i}`);
    expect(target.writes).toEqual([]);
    await nextTurn();
    logger.log('next turn');
    await nextTurn();

    expect(target.writes).toHaveLength(2);
    expect(
      target.writes[0]
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/^.*\[Runner\] /, '')),
    ).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
    expect(target.writes[1]).toMatch(/\[Runner\] next turn\n$/);
    expect(stream.writeCount).toBe(2);
  });

  it('still writes what it gathered when the process exits in the same turn', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'console-exit-'));
    try {
      const child = new LogChild(['console-exit', runDir]);
      const lines: string[] = [];
      child.process.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
      const exit = await child.exited;

      expect(exit).toEqual({ code: 0, signal: null });
      expect(lines.map((line) => line.replace(/^.*\[Child\] /, ''))).toEqual([
        'console line 0',
        'console line 1',
        'console line 2',
        'console line after the error',
      ]);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});
