import { describePull, formatSolverStep } from '@arvo-rca/a2a-protocol';
import type { PullProgress } from '@arvo-rca/sandbox';

/** What a running task tells whoever started it: each command the green agent runs for the solver, notes, and how far its image's pull is. */
export type TaskProgressEvent = { kind: 'step'; step: number; command: string } | { kind: 'note'; text: string } | ({ kind: 'pull' } & PullProgress);

export type TaskProgress = (event: TaskProgressEvent) => void;

/** A note, a step or a pull as one line of text, for a plain task request's status updates. */
export function describeProgress(event: TaskProgressEvent): string {
  switch (event.kind) {
    case 'note':
      return event.text;
    case 'pull':
      return describePull(event);
    case 'step':
      return formatSolverStep(event);
  }
}
