import type { CommandResult, SolverUsage } from '@arvo-rca/a2a-protocol';
import type { Model, ModelLogger } from '../models/model';
import type { TokenUsage, UsageTotals } from '../models/usage';
import type { AgentConfig } from './agent-config';
import type { ExitStatus } from './agent-errors';
import type { AgentTemplates } from './agent-templates';
import type { TaskEnvironment } from './task-environment';
import type { TrajectoryWriter } from './trajectory';

export interface AgentTask {
  /** The task id the green agent gave (`arvo:14368`, or a masked id such as `task:3f9a2c1b`), for naming files only. */
  taskId: string;
  contextId: string;
  /** The task description as the green agent sent it. */
  description: string;
}

export interface AgentResult {
  exitStatus: ExitStatus;
  /** The exit's message: the submission, or why the run stopped. */
  message: string;
  /** The loc.json text as submitted; empty unless Submitted. */
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

export interface AgentDependencies {
  model: Model;
  environment: TaskEnvironment;
  templates: AgentTemplates;
  config?: AgentConfig;
  /** Where the trajectory is kept after every step; see trajectoryPath(). */
  trajectoryFile?: string;
  trajectoryWriter?: TrajectoryWriter;
  /** The submission check: the problems of loc.json's text, none when it may be submitted; the judge library's strict one unless given. */
  checkLocJson?: (text: string) => string[];
  /** The process-wide totals this run adds to, besides its own. */
  processUsage?: UsageTotals;
  logger?: ModelLogger;
  clock?: () => number;
  /** Called after every step, once its trajectory is saved (progress updates to the peer). */
  onStep?: (progress: StepProgress) => void;
}
