// The settings a record's scores were made under: their hash, and how two sets of them differ. A resume
// under other settings is refused, and so is a comparison of two runs made under different ones.
import { createHash } from 'node:crypto';
import { recordedSandbox, type ScoringSettings } from './record-format';

/** A short hash of the settings, the same whatever order their keys come in. */
export function settingsHash(settings: ScoringSettings): string {
  const canonical = JSON.stringify(
    Object.keys(settings)
      .sort()
      .map((key) => [key, settings[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * Each way two sets of settings differ, in words, each side named (`TASK_TIMEOUT_S: 600 recorded, 900 now`).
 * A record from before the sandbox was recorded says only `auto`: which one ran is not known, and not held against either side.
 */
export function settingsDifferences(first: ScoringSettings, second: ScoringSettings, names: [string, string] = ['recorded', 'now']): string[] {
  const unknownSandbox = recordedSandbox(first) === 'unknown' || recordedSandbox(second) === 'unknown';
  const keys = [...new Set([...Object.keys(first), ...Object.keys(second)])].sort().filter((key) => !(key === 'SANDBOX' && unknownSandbox));
  return keys.filter((key) => first[key] !== second[key]).map((key) => `${key}: ${describe(first[key])} ${names[0]}, ${describe(second[key])} ${names[1]}`);
}

function describe(value: string | number | null | undefined): string {
  return value === null || value === undefined ? 'none' : JSON.stringify(value);
}
