import { formatSolverStep, type SolverExit, type SolverUsage } from '@arvo-rca/a2a-protocol';
import type { SolverTrajectory } from '@arvo-rca/common';
import type { AgentResult, StepProgress } from '../agent/agent-types';
import type { UsageSnapshot } from '../models/usage';

// What a run says about itself on the wire: a line per step, a closing line, and its exit with usage.

export function describeStep(progress: StepProgress): string {
  const { usage } = progress;
  const detail = `tokens in ${usage.input} out ${usage.output}, $${usage.cost.toFixed(4)}`;
  return formatSolverStep({ step: progress.steps, command: progress.lastCommand ?? '(no command)', detail });
}

export function describeResult(result: AgentResult): string {
  const { usage } = result;
  const tokens = `tokens in ${usage.input} out ${usage.output} cache read ${usage.cacheRead} write ${usage.cacheWrite}, ${usage.calls} calls, $${usage.cost.toFixed(4)}`;
  return `${result.exitStatus}: ${result.exitStatus === 'Submitted' ? 'loc.json submitted' : result.message} | ${tokens}`;
}

// A submission's message is the loc.json text, which the assessor reads for itself.
export function solverExitOf(result: AgentResult, seconds: number, trajectory: SolverTrajectory): SolverExit {
  const usage = solverUsageOf(result.usage, seconds);
  return result.exitStatus === 'Submitted' ? { exitStatus: 'Submitted', usage, trajectory } : { exitStatus: result.exitStatus, reason: result.message, usage, trajectory };
}

// Our token counts under CyberGym's names: `input` excludes what was read from or written to the cache.
function solverUsageOf(usage: UsageSnapshot, seconds: number): SolverUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_tokens: usage.cacheRead,
    cache_creation_tokens: usage.cacheWrite,
    est_usd_cost: Number(usage.cost.toFixed(6)),
    llm_requests: usage.calls,
    time_cost_sec: Number(seconds.toFixed(3)),
  };
}
