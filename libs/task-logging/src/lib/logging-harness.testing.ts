import { Logger } from '@nestjs/common';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSOLE_DELAY_MS } from './log-transports';
import { WinstonLoggerFactory, type TaskLoggingOptions } from './winston-logger.factory';

/** Text written to a console stream, kept for assertions. */
export class CapturedStream extends PassThrough {
  text = '';
  /** How many writes it took. */
  writes = 0;

  constructor() {
    super();
    this.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('utf8');
      this.writes += 1;
    });
  }
}

/** A factory on a fresh temporary run directory, installed as Nest's logger like the apps do. */
export class LoggingHarness {
  readonly root = mkdtempSync(join(tmpdir(), 'task-logging-'));
  readonly runDir = join(this.root, 'run');
  readonly out = new CapturedStream();
  readonly err = new CapturedStream();
  factory!: WinstonLoggerFactory;

  async open(options: Partial<TaskLoggingOptions> = {}): Promise<WinstonLoggerFactory> {
    this.factory = await WinstonLoggerFactory.open({
      agent: 'green',
      logDir: join(this.root, 'logs'),
      runDir: this.runDir,
      level: 'debug',
      console: { out: this.out, err: this.err, colors: false },
      ...options,
    });
    Logger.overrideLogger(this.factory.createNestLogger());
    return this.factory;
  }

  /** What reached the console's stdout, once the lines that wait to go out together (CONSOLE_DELAY_MS) are out. */
  async consoleOut(): Promise<string> {
    await sleep(2 * CONSOLE_DELAY_MS);
    return this.out.text;
  }

  lines(file: string): string[] {
    return readFileSync(join(this.runDir, file), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  }

  files(): string[] {
    return readdirSync(this.runDir).sort();
  }

  dispose(): void {
    this.factory?.close();
    Logger.overrideLogger(false);
    rmSync(this.root, { recursive: true, force: true });
  }
}
