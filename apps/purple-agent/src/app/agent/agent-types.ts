import type { SolverUsage } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import type { Trajectory } from '@arvo-rca/common';
import type { TokenUsage, UsageTotals } from '../models/usage';
import type { AgentConfig } from './agent-config';
import type { ExitStatus } from './agent-errors';
import type { AgentTemplates } from './agent-templates';

/** What a task's submission is: loc.json, checked before it is taken; or the output after the submit line, taken as it is. */
export type Submits = 'loc.json' | 'output';

export interface AgentTask {
  /** The task id the green agent gave (`arvo:14368`, or a masked id such as `task:3f9a2c1b`), for naming files only. */
  taskId: string;
  contextId: string;
  /** The task description as the green agent sent it. */
  description: string;
  /** loc.json unless said. */
  submits?: Submits;
}

export interface AgentResult {
  exitStatus: ExitStatus;
  /** The exit's message: the submission, or why the run stopped. */
  message: string;
  /** What was submitted (loc.json's text, or the output after the submit line); empty unless Submitted. */
  submission: string;
  usage: SolverUsage;
}

export interface CommandRecord extends CommandResult {
  /** Model calls made when the command ran. */
  step: number;
  command: string;
  /** `agent`: sent by the loop itself (reading loc.json at submission). */
  by: 'model' | 'agent';
}

export interface ModelCallRecord extends TokenUsage {
  /** USD; null when the model has no known price. */
  cost: number | null;
  truncated: boolean;
}

export interface StepProgress {
  steps: number;
  lastCommand?: string;
  exitStatus?: ExitStatus;
  usage: SolverUsage;
}

/** Where a run's trajectory goes: after every step, the run so far and its progress. A sink does not throw. */
export interface TrajectorySink {
  save(trajectory: Trajectory, progress: StepProgress): Promise<void>;
}

/** What a loop needs besides its model and its environment. */
export interface AgentOptions {
  templates: AgentTemplates;
  config?: AgentConfig;
  sink?: TrajectorySink;
  /** The submission check: the problems of loc.json's text, none when it may be submitted; the judge library's strict one unless given. */
  checkLocJson?: (text: string) => string[];
  /** The process-wide totals this run adds to, besides its own. */
  processUsage?: UsageTotals;
  clock?: () => number;
}
