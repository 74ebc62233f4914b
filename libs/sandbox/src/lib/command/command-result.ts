/** What one command did: the sandbox's result, the wire's, and the solver's observation alike. */
export interface CommandResult {
  returncode: number;
  /** stdout and stderr merged, possibly capped. */
  output: string;
  /** Why the command was stopped at its time limit (`command timed out after 120 s`); absent when it ended by itself. */
  timedOut?: string;
}

/** The returncode of a command that was killed at its deadline. */
export const TIMED_OUT_RETURNCODE = -1;
