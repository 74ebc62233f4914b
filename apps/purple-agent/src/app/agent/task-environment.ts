import type { CommandResult } from '@arvo-rca/sandbox';

/**
 * Where the agent's commands run: in production the green agent, reached over A2A (`execute:`
 * messages); in tests a local workspace. Throwing means the environment itself failed, which ends
 * the run with EnvironmentError; a failing command is a non-zero returncode.
 */
export interface TaskEnvironment {
  execute(command: string): Promise<CommandResult>;
  /** Tells the environment the agent has submitted (`[TASK FINISHED]`). */
  finish(): Promise<void>;
}
