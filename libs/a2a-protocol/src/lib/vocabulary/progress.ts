// Progress lines carried in `working` status updates: the solver's per-step reports, and the
// assessor's per-task reports that a driver turns into its live display.

import { formatBytes, isRecord } from '@arvo-rca/common';
import type { PullProgress } from '@arvo-rca/sandbox';

/** What the solver reports after each step. */
interface SolverStep {
  step: number;
  command: string;
  /** Extra figures (tokens, cost) shown as they are. */
  detail?: string;
}

const SOLVER_STEP = /^step (\d+): (.*?)(?: \| (.*))?$/s;

export function formatSolverStep(step: SolverStep): string {
  const command = step.command.replace(/\s+/g, ' ').trim();
  return `step ${step.step}: ${command}${step.detail ? ` | ${step.detail}` : ''}`;
}

export function parseSolverStep(text: string): SolverStep | undefined {
  const match = SOLVER_STEP.exec(text);
  return match ? { step: Number(match[1]), command: match[2], ...(match[3] ? { detail: match[3] } : {}) } : undefined;
}

/** `pulling n132/arvo:123-vul: 3/7 layers, 412.0 MiB of 1.2 GiB` */
export function describePull(pull: PullProgress): string {
  return `pulling ${pull.image}: ${pull.layersDone}/${pull.layers} layers, ${formatBytes(pull.bytesDone)} of ${formatBytes(pull.bytes)}`;
}

/** What an assessment reports about one of its tasks; a pull may come before the task's start, when its image is fetched ahead. */
export type TaskProgressLine =
  | { task: string; kind: 'started' }
  | { task: string; kind: 'step'; step: number; command: string }
  | { task: string; kind: 'finished'; status: string; detail: string }
  | { task: string; kind: 'note'; text: string }
  | ({ task: string; kind: 'pull' } & PullProgress);

const TASK_LINE = /^\[([^\]\s]+)\] (.*)$/s;
const FINISHED = /^finished (\w+)(?:: (.*))?$/s;

export function formatTaskProgress(line: TaskProgressLine): string {
  switch (line.kind) {
    case 'started':
      return `[${line.task}] started`;
    case 'step':
      return `[${line.task}] ${formatSolverStep({ step: line.step, command: line.command })}`;
    case 'finished':
      return `[${line.task}] finished ${line.status}${line.detail ? `: ${line.detail}` : ''}`;
    case 'note':
      return `[${line.task}] ${line.text}`;
    case 'pull':
      return `[${line.task}] ${describePull(line)}`;
  }
}

/** A line's text read back; a pull's reads as a note, since only its data part carries its figures exactly. */
export function parseTaskProgress(text: string): TaskProgressLine | undefined {
  const match = TASK_LINE.exec(text);
  if (!match) return undefined;
  const [, task, rest] = match;
  if (rest === 'started') return { task, kind: 'started' };
  const finished = FINISHED.exec(rest);
  if (finished) return { task, kind: 'finished', status: finished[1], detail: finished[2] ?? '' };
  const step = parseSolverStep(rest);
  if (step) return { task, kind: 'step', step: step.step, command: step.command };
  return { task, kind: 'note', text: rest };
}

// The same line as a data part of its status update, for drivers that read data rather than text:
//   {"task_progress": {"task": "sample:1", "kind": "step", "step": 3, "command": "ls /workspace"}}
interface TaskProgressData {
  task_progress: TaskProgressLine;
}

export function formatTaskProgressData(line: TaskProgressLine): TaskProgressData {
  return { task_progress: line };
}

/**
 * The progress lines among a status update's data parts, in order: one update carries the lines that came
 * close together (`TaskEventsOptions.progressEveryMs`); a part that holds no well-formed line is passed over.
 */
export function parseTaskProgressLines(data: readonly unknown[]): TaskProgressLine[] {
  return data.flatMap((item) => {
    const line = isRecord(item) ? progressLineOf(item['task_progress']) : undefined;
    return line ? [line] : [];
  });
}

function progressLineOf(value: unknown): TaskProgressLine | undefined {
  if (!isRecord(value)) return undefined;
  const { task, kind, step, command, status, detail, text } = value;
  if (typeof task !== 'string' || task === '') return undefined;
  if (kind === 'started') return { task, kind };
  if (kind === 'step' && Number.isInteger(step) && typeof command === 'string') return { task, kind, step: Number(step), command };
  if (kind === 'finished' && typeof status === 'string' && typeof detail === 'string') return { task, kind, status, detail };
  if (kind === 'note' && typeof text === 'string') return { task, kind, text };
  if (kind === 'pull') return pullOf(task, value);
  return undefined;
}

function pullOf(task: string, value: Record<string, unknown>): TaskProgressLine | undefined {
  const { image, layers, layersDone, bytes, bytesDone } = value;
  const counts = [layers, layersDone, bytes, bytesDone];
  if (typeof image !== 'string' || !counts.every((count) => Number.isInteger(count) && Number(count) >= 0)) return undefined;
  return { task, kind: 'pull', image, layers: Number(layers), layersDone: Number(layersDone), bytes: Number(bytes), bytesDone: Number(bytesDone) };
}
