// A real agent-like process for the multi-process tests, run with tsx by log-processes.testing.ts.
//   resolve <logDir> <agent> <clock offset s>   waits for "go <time>" on stdin, settles its run directory (its
//                              clock moved so that no two children would name a new directory alike), prints it
//   kill-self <runDir>         logs a task's lines and SIGKILLs itself right after the last log call
//   kill-waiting <runDir>      logs a task's lines, says "ready" and awaits forever (killed from outside)
//   console-exit <runDir>      logs lines to the console, a turn each, and calls process.exit right after the last
//   console-signal <runDir>    logs lines to the console, then as Nest's shutdown on SIGTERM does: the factory's
//                              shutdown, a line after it, and the signal raised again
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { WinstonLoggerFactory } from './winston-logger.factory';
import type { AgentName } from './log-line';
import { CHILD_TASK, CHILD_TASK_LINES } from './log-processes.testing';

// "go <epoch ms>" on stdin; then a spin until that instant, so that the children start within a millisecond.
async function waitForGo(): Promise<void> {
  const input = createInterface({ input: process.stdin });
  process.stdout.write('loaded\n');
  let startAt = Date.now();
  for await (const line of input) {
    if (!line.startsWith('go ')) continue;
    startAt = Number(line.slice(3));
    break;
  }
  input.close();
  while (Date.now() < startAt) {
    // spin
  }
}

async function resolveRun(logDir: string, agent: AgentName, clockOffsetS: number): Promise<void> {
  await waitForGo();
  const clock = (): Date => new Date(Date.now() + clockOffsetS * 1000);
  const logging = await WinstonLoggerFactory.open({ agent, logDir, level: 'info', console: false, clock });
  Logger.overrideLogger(logging.createNestLogger());
  new Logger('Child').log(`started in ${logging.runDirectory}`);
  process.stdout.write(`${JSON.stringify({ runDirectory: logging.runDirectory })}\n`);
  logging.close();
}

async function logTask(runDir: string): Promise<WinstonLoggerFactory> {
  const logging = await WinstonLoggerFactory.open({ agent: 'green', logDir: runDir, runDir, level: 'info', console: false });
  Logger.overrideLogger(logging.createNestLogger());
  const logger = new Logger('Child');
  logger.log('agent up');
  const scope = logging.openTask(CHILD_TASK);
  await scope.run(async () => {
    for (let i = 0; i < CHILD_TASK_LINES; i++) {
      logger.log(`task line ${i}`);
      await (i % 2 === 0 ? nextTurn() : sleep(0));
    }
  });
  return logging;
}

// The console's lines wait up to CONSOLE_DELAY_MS to go out together: none may be lost on the way out.
async function logToConsole(runDir: string, mode: string): Promise<void> {
  const logging = await WinstonLoggerFactory.open({ agent: 'green', logDir: runDir, runDir, level: 'info' });
  Logger.overrideLogger(logging.createNestLogger());
  const logger = new Logger('Child');
  for (let i = 0; i < CHILD_TASK_LINES; i++) {
    logger.log(`console line ${i}`);
    await nextTurn();
  }
  if (mode === 'console-exit') {
    logger.log('last line, then exit');
    process.exit(0);
  }
  logger.log('last line before the signal');
  process.once('SIGTERM', () => {
    logger.log('shutting down');
    logging.onApplicationShutdown();
    logger.log('shut down');
    process.kill(process.pid, 'SIGTERM');
  });
  process.kill(process.pid, 'SIGTERM');
  await new Promise(() => setInterval(() => undefined, 60_000));
}

async function main(): Promise<void> {
  const [mode, dir, agent, clockOffsetS] = process.argv.slice(2);
  if (mode === 'resolve') return resolveRun(dir, agent as AgentName, Number(clockOffsetS));
  if (mode.startsWith('console-')) return logToConsole(dir, mode);
  const logging = await logTask(dir);
  const logger = new Logger('Child');
  if (mode === 'kill-self') {
    logging.openTask(CHILD_TASK).run(() => logger.log('last line, then SIGKILL'));
    process.kill(process.pid, 'SIGKILL');
  } else {
    logging.openTask(CHILD_TASK).run(() => logger.log('last line, then waiting'));
    process.stdout.write('ready\n');
    await new Promise(() => setInterval(() => undefined, 60_000));
  }
}

void main();
