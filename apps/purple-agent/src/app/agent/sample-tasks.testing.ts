// Test-only: the bundled sample tasks (samples/<n>/) and a task description like the green agent's.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SAMPLES_DIR = resolve(__dirname, '../../../../../samples');

export interface SampleManifest {
  project: string;
  fuzzer: string;
  bug_class: string;
  crash_function: string;
  root_cause: { file: string; function: string }[];
}

export function sampleDir(id: string): string {
  return join(SAMPLES_DIR, id);
}

export function sampleIds(): string[] {
  return readdirSync(SAMPLES_DIR)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b));
}

export function readSample(id: string): SampleManifest {
  return JSON.parse(readFileSync(join(sampleDir(id), 'sample.json'), 'utf8')) as SampleManifest;
}

export function sampleErrorReport(id: string): string {
  return readFileSync(join(sampleDir(id), 'error.txt'), 'utf8');
}

/** What the green agent sends for `sample:<id>`, in substance: where things are, the report, loc.json. */
export function sampleTaskDescription(id: string): string {
  return [
    `Root-cause analysis task sample:${id}`,
    `The vulnerable source tree is /workspace/src-vul/${readSample(id).project}. The sanitizer crash report, also at /workspace/${id}_error.txt:`,
    '```',
    sampleErrorReport(id).trim(),
    '```',
    'Write /workspace/shared/loc.json with three ranked candidate locations, then send [TASK FINISHED].',
  ].join('\n');
}
