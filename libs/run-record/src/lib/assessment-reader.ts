// An `assessment.json` read back: the record's header, as a resume, the viewer or a copy of the record needs it.
import { isRecord } from '@arvo-rca/common';
import { ASSESSMENT_FORMAT, type AssessmentFile } from './record-format';

/** `value` as a record's `assessment.json`, or why it is none. */
export function assessmentFileOf(value: unknown): { assessment: AssessmentFile } | { problem: string } {
  const problem = assessmentProblem(value);
  return problem === undefined ? { assessment: value as AssessmentFile } : { problem };
}

function assessmentProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'it is not a JSON object';
  if (value['format'] !== ASSESSMENT_FORMAT) return `its format is ${JSON.stringify(value['format'])}, not ${ASSESSMENT_FORMAT}`;
  if (!Array.isArray(value['tasks']) || !value['tasks'].every((task) => typeof task === 'string')) return 'it has no list of tasks';
  if (!Array.isArray(value['sessions'])) return 'it has no sessions';
  if (!isRecord(value['solver']) || !isRecord(value['settings']) || typeof value['settings_hash'] !== 'string')
    return 'it does not say which solver and settings it ran with';
  return undefined;
}
