// Solver → green, on the message or status update that ends the solver's task: how its run ended, as
// a data part beside the text, e.g.
//   {"exit_status": "ModelError", "reason": "the model failed (401): ...",
//    "usage": {"input_tokens": 1200, "output_tokens": 300, "cache_read_tokens": 0, "cache_creation_tokens": 0,
//              "est_usd_cost": 0.0123, "llm_requests": 4, "time_cost_sec": 12.5}}
// The status is one word (mini-swe-agent's: Submitted, LimitsExceeded, TimeExceeded, FormatError,
// ModelError, EnvironmentError); the reason, when given, says why in a sentence; the usage, when given,
// is what the run cost, under CyberGym's submission names, `est_usd_cost` null when the solver has no
// price for its model. `trajectory` says where the solver wrote its
// trajectory on its own machine, and `trajectory_document` is that trajectory itself (up to
// MAX_TRAJECTORY_CHARS of JSON), so that the run record keeps it whether or not the agents share a disk.
// An exit for a foreign assessor (summarizedSolverExit) carries neither: `trajectory_summary` instead, a
// bounded summary in the trajectory's layout, which a record keeps as the trajectory when it is all that came.

import { isRecord, MAX_TRAJECTORY_CHARS, type SolverTrajectory, type Trajectory, TRAJECTORY_FORMAT } from '@arvo-rca/common';
import { SOLVER_USAGE_FIELDS, type SolverExit, type SolverUsage } from '@arvo-rca/results';
import { summarizeTrajectory } from './trajectory-summary';

// The exit and its usage are the Result's own shapes: both agents and the record speak of them alike.
export type { SolverExit, SolverUsage };

/** The data part as it travels. */
interface SolverExitData {
  exit_status: string;
  reason?: string;
  usage?: SolverUsage;
  trajectory?: string;
  trajectory_document?: Trajectory;
  trajectory_summary?: Trajectory;
}

const EXIT_STATUS = /^[A-Za-z][\w-]{0,63}$/;
// The reason goes into the task's record: a solver cannot make that grow without bound.
export const MAX_EXIT_REASON_CHARS = 2000;
const MAX_TRAJECTORY_PATH_CHARS = 4096;

export function formatSolverExit(exit: SolverExit): SolverExitData {
  return {
    exit_status: exit.exitStatus,
    ...(exit.reason === undefined ? {} : { reason: exit.reason }),
    ...(exit.usage === undefined ? {} : { usage: exit.usage }),
    ...(exit.trajectory?.path === undefined ? {} : { trajectory: exit.trajectory.path }),
    // A run too long to travel is kept by its solver alone.
    ...(exit.trajectory?.document === undefined || !withinBound(exit.trajectory.document) ? {} : { trajectory_document: exit.trajectory.document }),
  };
}

/** The exit as it goes to an assessor that is not ours: the exit and its usage, a bounded trajectory summary (of a run of any length), no local path. */
export function summarizedSolverExit(exit: SolverExit): SolverExitData {
  const { trajectory: _trajectory, ...rest } = formatSolverExit({ ...exit, trajectory: undefined });
  return { ...rest, ...(exit.trajectory?.document === undefined ? {} : { trajectory_summary: summarizeTrajectory(exit.trajectory.document) }) };
}

/** The first solver exit among a message's data parts; undefined when none is one (a status that is no single word is none). */
export function parseSolverExit(data: readonly unknown[]): SolverExit | undefined {
  for (const item of data) {
    if (!isRecord(item)) continue;
    const { exit_status: exitStatus, reason, usage, trajectory, trajectory_document: document, trajectory_summary: summary } = item;
    if (typeof exitStatus !== 'string' || !EXIT_STATUS.test(exitStatus)) continue;
    const parsedUsage = parseSolverUsage(usage);
    return {
      exitStatus,
      ...(typeof reason === 'string' && reason.trim() ? { reason: cut(reason.trim()) } : {}),
      ...(parsedUsage ? { usage: parsedUsage } : {}),
      // The whole trajectory when it came; else its summary, which is then what the record keeps.
      ...solverTrajectory(trajectory, document ?? summary),
    };
  }
  return undefined;
}

/**
 * A usage report, when every field is a finite number at or above zero, the cost null too (a model without
 * a known price); undefined otherwise (a solver's word, not ours to repair).
 */
function parseSolverUsage(value: unknown): SolverUsage | undefined {
  if (!isRecord(value)) return undefined;
  const usage: Partial<Record<keyof SolverUsage, number | null>> = {};
  for (const field of SOLVER_USAGE_FIELDS) {
    const figure = value[field];
    if (field === 'est_usd_cost' && figure === null) usage[field] = null;
    else if (typeof figure !== 'number' || !Number.isFinite(figure) || figure < 0) return undefined;
    else usage[field] = figure;
  }
  return usage as SolverUsage;
}

function solverTrajectory(path: unknown, document: unknown): { trajectory?: SolverTrajectory } {
  const trajectory: SolverTrajectory = {
    ...(typeof path === 'string' && path !== '' && path.length <= MAX_TRAJECTORY_PATH_CHARS ? { path } : {}),
    ...(isTrajectory(document) && withinBound(document) ? { document } : {}),
  };
  return trajectory.path === undefined && trajectory.document === undefined ? {} : { trajectory };
}

// The layout's frame; what is inside is the solver's word, read leniently by whoever shows it.
function isTrajectory(value: unknown): value is Trajectory {
  return isRecord(value) && value['trajectory_format'] === TRAJECTORY_FORMAT && isRecord(value['info']) && Array.isArray(value['messages']);
}

function withinBound(trajectory: Trajectory): boolean {
  return JSON.stringify(trajectory).length <= MAX_TRAJECTORY_CHARS;
}

function cut(reason: string): string {
  return reason.length > MAX_EXIT_REASON_CHARS ? `${reason.slice(0, MAX_EXIT_REASON_CHARS)}…` : reason;
}
