import { PRODUCT_VERSION, type PeerCard } from '@arvo-rca/a2a-protocol';
import type { ScoringSettings, SolverIdentity } from '@arvo-rca/run-record';
import type { SandboxBackendName } from '@arvo-rca/sandbox';
import type { GreenConfig } from '../../green-config';

// What can change a task's score: the judge, the sandbox and its limits. URLs, ports, concurrency and
// attempts do not, and are left out: a run moved to another port is the same run. Their hash and their
// differences are the run record's (settingsHash, settingsDifferences), which a comparison of runs reads too.
const SCORING_KEYS = [
  'TASK_TIMEOUT_S',
  'COMMAND_TIMEOUT_S',
  'MAX_OUTPUT_BYTES',
  'CONTAINER_MEMORY',
  'CONTAINER_PIDS',
  'CONTAINER_CPUS',
  'CONTAINER_DISK',
] as const;

/** `SANDBOX` is the sandbox that runs the tasks, not the choice: `auto` would hide a run in bubblewrap as a Docker one. */
export function scoringSettings(environment: Pick<GreenConfig, (typeof SCORING_KEYS)[number]>, sandbox: SandboxBackendName): ScoringSettings {
  const settings: ScoringSettings = { judge: PRODUCT_VERSION, SANDBOX: sandbox };
  for (const key of SCORING_KEYS) settings[key] = environment[key];
  return settings;
}

/** Each way the solver differs from the recorded one: its model, name or version (never its URL). */
export function solverDifferences(recorded: SolverIdentity, now: PeerCard): string[] {
  const fields = ['model', 'name', 'version'] as const;
  return fields
    .filter((field) => recorded[field] !== now[field])
    .map((field) => `the solver's ${field}: ${describe(recorded[field])} recorded, ${describe(now[field])} now`);
}

function describe(value: string | number | null | undefined): string {
  return value === null || value === undefined ? 'none' : JSON.stringify(value);
}
