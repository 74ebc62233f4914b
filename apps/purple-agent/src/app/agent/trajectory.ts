import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ChatMessage } from '../models/model';
import type { UsageSnapshot } from '../models/usage';
import type { AgentConfig } from './agent-config';
import type { ExitStatus } from './agent-errors';
import type { AgentTask, CommandRecord, ModelCallRecord } from './agent-types';

export const TRAJECTORY_FORMAT = 'mini-swe-agent-1';

/** mini-swe-agent's trajectory layout, so that its viewers read ours; our extras sit in `info`. */
export interface Trajectory {
  info: {
    exit_status: ExitStatus | null;
    submission: string;
    model_stats: { instance_cost: number; api_calls: number };
    config: { agent: AgentConfig; model: { model_name: string }; environment: { task_id: string; context_id: string } };
    tokens: { input: number; output: number; cache_read: number; cache_write: number };
    /** Tokens and USD of each model call, in order. */
    model_calls: { input: number; output: number; cache_read: number; cache_write: number; cost: number; truncated: boolean }[];
    /** Every command sent to the environment, in order (outputs are in the messages). */
    commands: { step: number; command: string; returncode: number; timed_out: boolean; output_chars: number; by: 'model' | 'agent' }[];
  };
  messages: ChatMessage[];
  trajectory_format: typeof TRAJECTORY_FORMAT;
}

/** `<run log dir>/trajectories/<source>_<id>-<context>.traj.json` */
export function trajectoryPath(runLogDir: string, taskId: string, contextId: string): string {
  const safe = (text: string): string => text.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(runLogDir, 'trajectories', `${safe(taskId.replace(':', '_'))}-${safe(contextId)}.traj.json`);
}

export interface RunState {
  exitStatus: ExitStatus | null;
  submission: string;
  usage: UsageSnapshot;
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
      model_stats: { instance_cost: usage.cost, api_calls: usage.calls },
      config: {
        agent: run.config,
        model: { model_name: run.modelName },
        environment: { task_id: run.task?.taskId ?? '', context_id: run.task?.contextId ?? '' },
      },
      tokens: { input: usage.input, output: usage.output, cache_read: usage.cacheRead, cache_write: usage.cacheWrite },
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
        timed_out: record.timedOut === true,
        output_chars: record.output.length,
        by: record.by,
      })),
    },
    messages: run.messages,
    trajectory_format: TRAJECTORY_FORMAT,
  };
}

/**
 * Writes whole files atomically: a temporary file in the same directory, then a rename over the
 * target, so a reader (or a process killed mid-write) never sees half a trajectory.
 */
export class TrajectoryWriter {
  async write(path: string, trajectory: Trajectory): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, JSON.stringify(trajectory, null, 2));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
