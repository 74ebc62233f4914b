// Control flow of the agent loop, as in mini-swe-agent: a step throws, and the one catch in
// DefaultAgent.run either hands the message to the model (a correction) or ends the run (an exit).

export type ExitStatus = 'Submitted' | 'LimitsExceeded' | 'TimeExceeded' | 'FormatError' | 'ModelError' | 'EnvironmentError' | 'UncaughtError';

/** Ends the run. The status is the exit status; the message is the last message of the trajectory. */
export abstract class AgentExit extends Error {
  abstract readonly status: ExitStatus;
}

export class Submitted extends AgentExit {
  override readonly status = 'Submitted';

  /** `submission`: what was submitted (loc.json's text, or the output after the submit line). */
  constructor(
    readonly submission: string,
    message: string,
  ) {
    super(message);
  }
}

export class LimitsExceeded extends AgentExit {
  override readonly status = 'LimitsExceeded';
}

export class TimeExceeded extends AgentExit {
  override readonly status = 'TimeExceeded';
}

/** Too many format errors in a row: consecutive replies without exactly one runnable bash block. */
export class FormatErrorsExceeded extends AgentExit {
  override readonly status = 'FormatError';
}

export class ModelError extends AgentExit {
  override readonly status = 'ModelError';
}

export class EnvironmentError extends AgentExit {
  override readonly status = 'EnvironmentError';
}

/**
 * What the loop did not expect (a bug, a broken dependency): recorded as the run's exit, with the error's
 * name, message and stack as its message, before the error goes on to the loop's caller.
 */
export class UncaughtError extends AgentExit {
  override readonly status = 'UncaughtError';

  constructor(readonly error: unknown) {
    super(error instanceof Error ? `${error.stack ?? `${error.name}: ${error.message}`}` : `uncaught: ${String(error)}`);
  }
}

/** Something the model can fix: the message goes to the model and the loop goes on. */
export abstract class Correction extends Error {}

/** Zero or several bash blocks, or a reply cut off at the token limit: nothing ran (mini-swe-agent's FormatError). */
export class FormatError extends Correction {}

/** The submission's loc.json is missing or malformed. */
export class SubmissionError extends Correction {}
