import type { PurpleConfig } from '../purple-config';

/** The loop's limits and observation sizes; every limit is off at 0. */
export interface AgentConfig {
  /** Model calls. */
  stepLimit: number;
  /** USD. */
  costLimit: number;
  wallTimeLimitS: number;
  /** Consecutive replies that executed nothing. */
  formatErrorLimit: number;
  /** Rejected submissions (missing or malformed loc.json) before the next one is taken as it is. */
  submissionCorrections: number;
  /** Outputs longer than this are shown as a head and a tail. */
  outputLimitChars: number;
  outputHeadChars: number;
  outputTailChars: number;
}

export const DEFAULT_AGENT_CONFIG: AgentConfig = Object.freeze({
  stepLimit: 60,
  costLimit: 2.0,
  wallTimeLimitS: 1800,
  formatErrorLimit: 3,
  submissionCorrections: 2,
  outputLimitChars: 10_000,
  outputHeadChars: 5_000,
  outputTailChars: 5_000,
});

export function agentConfigFrom(env: Pick<PurpleConfig, 'STEP_LIMIT' | 'COST_LIMIT' | 'WALL_TIME_LIMIT_S' | 'FORMAT_ERROR_LIMIT'>): AgentConfig {
  return {
    ...DEFAULT_AGENT_CONFIG,
    stepLimit: env.STEP_LIMIT,
    costLimit: env.COST_LIMIT,
    wallTimeLimitS: env.WALL_TIME_LIMIT_S,
    formatErrorLimit: env.FORMAT_ERROR_LIMIT,
  };
}
