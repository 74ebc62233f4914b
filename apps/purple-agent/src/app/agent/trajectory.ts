import { join } from 'node:path';
import type { SolverUsage } from '@arvo-rca/a2a-protocol';
import { TRAJECTORY_FORMAT, type Trajectory } from '@arvo-rca/common';
import type { ChatMessage, ModelLogger } from '../models/model';
import { errorMessage } from '../models/model-errors';
import type { AgentConfig } from './agent-config';
import type { ExitStatus } from './agent-errors';
import type { AgentTask, CommandRecord, ModelCallRecord, StepProgress, TrajectorySink } from './agent-types';
import { TrajectoryFile } from './trajectory-file';

/** `<run log dir>/trajectories/<source>_<id>-<context>.traj.json` */
export function trajectoryPath(runLogDir: string, taskId: string, contextId: string): string {
  const safe = (text: string): string => text.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(runLogDir, 'trajectories', `${safe(taskId.replace(':', '_'))}-${safe(contextId)}.traj.json`);
}

export interface RunState {
  exitStatus: ExitStatus | null;
  submission: string;
  usage: SolverUsage;
  config: AgentConfig;
  modelName: string;
  task?: AgentTask;
  history: readonly CommandRecord[];
  calls: readonly ModelCallRecord[];
  messages: ChatMessage[];
}

export function buildTrajectory(run: RunState): Trajectory {
  const { usage } = run;
  return {
    info: {
      exit_status: run.exitStatus,
      submission: run.submission,
      model_stats: { instance_cost: usage.est_usd_cost, api_calls: usage.llm_requests },
      config: {
        agent: run.config,
        model: { model_name: run.modelName },
        environment: { task_id: run.task?.taskId ?? '', context_id: run.task?.contextId ?? '' },
      },
      tokens: { input: usage.input_tokens, output: usage.output_tokens, cache_read: usage.cache_read_tokens, cache_write: usage.cache_creation_tokens },
      model_calls: run.calls.map((call) => ({
        input: call.input,
        output: call.output,
        cache_read: call.cacheRead,
        cache_write: call.cacheWrite,
        cost: call.cost,
        truncated: call.truncated,
      })),
      commands: run.history.map((record) => ({
        step: record.step,
        command: record.command,
        returncode: record.returncode,
        timed_out: record.timedOut !== undefined,
        output_chars: record.output.length,
        by: record.by,
      })),
    },
    messages: run.messages,
    trajectory_format: TRAJECTORY_FORMAT,
  };
}

/** Opens the trajectory file of each run; the file stays one JSON document while it grows. */
export class TrajectoryWriter {
  /** The trajectory of a new run at `path`: its first save replaces any file there. */
  open(path: string): TrajectoryFile {
    return new TrajectoryFile(path);
  }
}

export interface TrajectoryFileSinkOptions {
  writer?: TrajectoryWriter;
  /** Told when a write fails. */
  logger?: ModelLogger;
  /** Called after every step, once its trajectory is saved (progress reports to the assessor). */
  onStep?: (progress: StepProgress) => void;
}

/** A run's trajectory in one file (see trajectoryPath), rewritten after every step; a failed write is a warning, never the run's end. */
export class TrajectoryFileSink implements TrajectorySink {
  private file?: TrajectoryFile;

  constructor(
    readonly path: string,
    private readonly options: TrajectoryFileSinkOptions = {},
  ) {}

  async save(trajectory: Trajectory, progress: StepProgress): Promise<void> {
    try {
      this.file ??= (this.options.writer ?? new TrajectoryWriter()).open(this.path);
      await this.file.save(trajectory);
    } catch (error) {
      this.options.logger?.warn(`cannot write the trajectory ${this.path}: ${errorMessage(error)}`);
    }
    this.options.onStep?.(progress);
  }
}
