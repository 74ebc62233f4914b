import { formatSolverStep, type SolverExit, type SolverUsage } from '@arvo-rca/a2a-protocol';
import type { SolverTrajectory } from '@arvo-rca/common';
import type { AgentResult, StepProgress, Submits } from '../agent/agent-types';

// What a run says about itself on the wire: a line per step, a closing line, and its exit with usage.

export function describeStep(progress: StepProgress): string {
  const { usage } = progress;
  const detail = `tokens in ${usage.input_tokens} out ${usage.output_tokens}, ${dollars(usage.est_usd_cost)}`;
  return formatSolverStep({ step: progress.steps, command: progress.lastCommand ?? '(no command)', detail });
}

export function describeResult(result: AgentResult, submits: Submits = 'loc.json'): string {
  const { usage } = result;
  const tokens = `tokens in ${usage.input_tokens} out ${usage.output_tokens} cache read ${usage.cache_read_tokens} write ${usage.cache_creation_tokens}, ${usage.llm_requests} calls, ${dollars(usage.est_usd_cost)}`;
  return `${result.exitStatus}: ${result.exitStatus === 'Submitted' ? submitted(result, submits) : result.message} | ${tokens}`;
}

function submitted(result: AgentResult, submits: Submits): string {
  return submits === 'loc.json' ? 'loc.json submitted' : `submitted ${JSON.stringify(result.submission.slice(0, 200))}`;
}

// A submission's message is the loc.json text, which the assessor reads for itself.
export function solverExitOf(result: AgentResult, seconds: number, trajectory: SolverTrajectory): SolverExit {
  const usage = solverUsageOf(result.usage, seconds);
  return result.exitStatus === 'Submitted'
    ? { exitStatus: 'Submitted', usage, trajectory }
    : { exitStatus: result.exitStatus, reason: result.message, usage, trajectory };
}

// The run's usage as it travels: the cost without float noise, and the time the whole task took here.
function solverUsageOf(usage: SolverUsage, seconds: number): SolverUsage {
  const cost = usage.est_usd_cost === null ? null : Number(usage.est_usd_cost.toFixed(6));
  return { ...usage, est_usd_cost: cost, time_cost_sec: Number(seconds.toFixed(3)) };
}

function dollars(cost: number | null): string {
  return cost === null ? 'cost unknown (no price for the model)' : `$${cost.toFixed(4)}`;
}
