// `npm run compare -- RECORD_A RECORD_B [--logs DIR ...] [--json]`: two run records compared on the tasks
// both graded, per metric the difference B - A with its paired-bootstrap interval and McNemar's exact test
// on the top-k hits, and the tasks that score differently. Refused when the two were scored under different settings.
import { compareRecords } from '@arvo-rca/run-record';
import { CompareUsageError, openRecord, parseCompareOptions } from './compare-options';
import { formatComparison } from './comparison-report';

async function main(): Promise<void> {
  const options = parseCompareOptions(process.argv.slice(2), process.env);
  const [a, b] = await Promise.all(options.records.map((given) => openRecord(given, options.logDirs)));
  const comparison = compareRecords(a, b);
  console.log(options.json ? JSON.stringify(comparison, null, 2) : formatComparison(a, b, comparison));
}

main().catch((error: Error) => {
  console.error(`compare: ${error.message}`);
  process.exit(error instanceof CompareUsageError ? 2 : 1);
});
