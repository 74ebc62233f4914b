import { createHash } from 'node:crypto';
import { PRODUCT_VERSION, type PeerCard } from '@arvo-rca/a2a-protocol';
import { recordedSandbox, type ScoringSettings, type SolverIdentity } from '@arvo-rca/run-record';
import type { SandboxBackendName } from '@arvo-rca/sandbox';
import type { GreenConfig } from '../green-config';

// What can change a task's score: the judge, the sandbox and its limits. URLs, ports, concurrency and
// attempts do not, and are left out: a run moved to another port is the same run.
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

/** A short hash of the settings, the same whatever order their keys come in. */
export function settingsHash(settings: ScoringSettings): string {
  const canonical = JSON.stringify(
    Object.keys(settings)
      .sort()
      .map((key) => [key, settings[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** Each way the settings differ from the recorded ones, in words (`TASK_TIMEOUT_S: 600 recorded, 900 now`). */
export function settingsDifferences(recorded: ScoringSettings, now: ScoringSettings): string[] {
  // A record from before the sandbox was recorded says only `auto`: which one ran is not known, and not held against it.
  const unknownSandbox = recordedSandbox(recorded) === 'unknown';
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort().filter((key) => !(key === 'SANDBOX' && unknownSandbox));
  return keys.filter((key) => recorded[key] !== now[key]).map((key) => `${key}: ${describe(recorded[key])} recorded, ${describe(now[key])} now`);
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
