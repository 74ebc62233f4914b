import type { Logger } from '@nestjs/common';
import type { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import type { GroundTruthExtractor } from '@arvo-rca/rca-eval';
import type { SandboxFactory } from '@arvo-rca/sandbox';
import type { TaskAssetsService } from '../task-assets';
import type { TaskContext } from './task-context';

/** Where the running tasks are held: the solver's call-backs find a task there by its context id. */
export interface RunningTasks {
  /** Set once shutdown begins: a task still being prepared gets no sandbox. */
  readonly closing: boolean;
  add(context: TaskContext): void;
  remove(contextId: string): void;
}

/** What every task's run shares: the green agent's services and settings. */
export interface TaskRunDeps {
  assets: TaskAssetsService;
  sandboxes: SandboxFactory;
  groundTruth: GroundTruthExtractor;
  peers: A2aClientFactory;
  running: RunningTasks;
  logger: Logger;
  template: string;
  taskTimeoutS: number;
  /** The sandbox's limit of one command; a solver that asks for a time gets at most this. */
  commandTimeoutS: number;
}
