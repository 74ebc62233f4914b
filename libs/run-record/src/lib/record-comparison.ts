// Two run records compared task by task, when their scores were made under the same settings.
import { pairedComparison, type PairedComparison } from '@arvo-rca/results';
import { RecordError } from './record-error';
import type { RecordScan } from './record-scan';
import { settingsDifferences } from './scoring-settings';

/**
 * Record A against record B on the tasks both graded (RecordScan's `done`: a task not recorded yet, or
 * damaged, is in neither). Refused with SETTINGS_DIFFER, naming each difference, when the two were scored
 * under different settings (judge, sandbox, limits): their scores do not measure the same thing.
 */
export function compareRecords(a: RecordScan, b: RecordScan): PairedComparison {
  const differences = settingsDifferences(a.assessment.settings, b.assessment.settings, ['in A', 'in B']);
  if (differences.length > 0)
    throw new RecordError(
      'SETTINGS_DIFFER',
      `the two runs were scored under different settings, so their scores are not comparable: ${differences.join('; ')}`,
    );
  const metrics = (scan: RecordScan) => new Map([...scan.done].map(([key, record]) => [key, record.metrics]));
  return pairedComparison(metrics(a), metrics(b));
}
