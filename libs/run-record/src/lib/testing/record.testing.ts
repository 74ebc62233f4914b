// A record's header and a task's evidence as the specs build them, so that no spec spells them again.
import type { NewAssessment, TaskEvidence } from '../../index';

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
