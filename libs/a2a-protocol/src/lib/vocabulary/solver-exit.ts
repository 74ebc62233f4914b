// Solver → green, on the message or status update that ends the solver's task: how its run ended, as
// a data part beside the text, e.g. {"exit_status": "ModelError", "reason": "the model failed (401): ..."}.
// The status is one word (mini-swe-agent's: Submitted, LimitsExceeded, TimeExceeded, FormatError,
// ModelError, EnvironmentError); the reason, when given, says why in a sentence.

/** How a solver says its run ended. */
export interface SolverExit {
  exitStatus: string;
  reason?: string;
}

/** The data part as it travels. */
export interface SolverExitData {
  exit_status: string;
  reason?: string;
}

const EXIT_STATUS = /^[A-Za-z][\w-]{0,63}$/;
// The reason goes into the task's record: a solver cannot make that grow without bound.
export const MAX_EXIT_REASON_CHARS = 2000;

export function formatSolverExit(exit: SolverExit): SolverExitData {
  return exit.reason === undefined ? { exit_status: exit.exitStatus } : { exit_status: exit.exitStatus, reason: exit.reason };
}

/** The first solver exit among a message's data parts; undefined when none is one (a status that is no single word is none). */
export function parseSolverExit(data: readonly unknown[]): SolverExit | undefined {
  for (const item of data) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const { exit_status: exitStatus, reason } = item as Record<string, unknown>;
    if (typeof exitStatus !== 'string' || !EXIT_STATUS.test(exitStatus)) continue;
    return typeof reason === 'string' && reason.trim() ? { exitStatus, reason: cut(reason.trim()) } : { exitStatus };
  }
  return undefined;
}

function cut(reason: string): string {
  return reason.length > MAX_EXIT_REASON_CHARS ? `${reason.slice(0, MAX_EXIT_REASON_CHARS)}…` : reason;
}
