// A record's header, a task's evidence and a run directory to write them in, as the specs build them, so that
// no spec spells them again.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchFolder } from '@arvo-rca/common/testing';
import type { NewAssessment, TaskEvidence } from '../record-writer';

/** An assessment of `tasks` by a solver of `model` (`baseline` unless given), one at a time, with `fields` laid over it. */
export function newAssessment(tasks: string[], { model = 'baseline', ...fields }: Partial<NewAssessment> & { model?: string } = {}): NewAssessment {
  return {
    tasks,
    concurrency: 1,
    shard: { index: 0, count: 1 },
    assessor: { name: 'arvo-rca green agent', version: '0.1.0' },
    solver: { name: 'arvo-rca purple agent', version: '0.1.0', model, url: 'http://127.0.0.1:9019/' },
    settings: { TASK_TIMEOUT_S: 60 },
    settings_hash: 'abc',
    ...fields,
  };
}

/** A task that left nothing to show: no crash report, fix, answer, sources, trajectory or log. */
export const NO_EVIDENCE: TaskEvidence = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: null };

/**
 * A log folder (a scratchFolder: made before each test, or with `all` once for the suite, removed after)
 * holding one run directory, `log_<stamp>`, as an agent's LOG_DIR holds its runs.
 */
export function scratchRunDir(prefix: string, scope: 'each' | 'all' = 'each', stamp = '2026-11-28_10-00-00'): { logDir: () => string; runDir: () => string } {
  const logDir = scratchFolder(prefix, scope);
  const runDir = (): string => join(logDir(), `log_${stamp}`);
  (scope === 'each' ? beforeEach : beforeAll)(() => mkdir(runDir()));
  return { logDir, runDir };
}
