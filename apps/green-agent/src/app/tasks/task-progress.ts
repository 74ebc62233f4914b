/** What a running task tells whoever started it: each command the green agent runs for the solver, and notes. */
export type TaskProgressEvent = { kind: 'step'; step: number; command: string } | { kind: 'note'; text: string };

export type TaskProgress = (event: TaskProgressEvent) => void;

/** A note, or a step as one line of text, for a plain task request's status updates. */
export function describeProgress(event: TaskProgressEvent): string {
  return event.kind === 'note' ? event.text : `step ${event.step}: ${event.command.replace(/\s+/g, ' ').trim()}`;
}
