// Green → driver: where the green agent keeps an assessment's run record, as a data part beside the text.
// On the first status of the assessment, so that a driver knows the record even if the green agent dies:
//   {"record_dir": "logs/log_2026-11-23_19-40-00/assessments/2026-11-23_19-40-01_ab12cd34"}
// and on its final status (the Result itself is the artifact before it), with the Result's file:
//   {"record_dir": "...", "results_file": ".../result.json"}

interface AssessmentSaved {
  /** The run record's folder on the green agent's machine: what `npm run assess -- --resume` takes. */
  recordDir: string;
  /** The path of the Result's JSON there, once the assessment has ended. */
  resultsFile?: string;
}

interface AssessmentSavedData {
  record_dir: string;
  results_file?: string;
}

export function formatAssessmentSaved(saved: AssessmentSaved): AssessmentSavedData {
  return { record_dir: saved.recordDir, ...(saved.resultsFile === undefined ? {} : { results_file: saved.resultsFile }) };
}

/** The first data part that says where an assessment is recorded; undefined when none does. */
export function parseAssessmentSaved(data: readonly unknown[]): AssessmentSaved | undefined {
  for (const item of data) {
    if (typeof item !== 'object' || item === null || !('record_dir' in item)) continue;
    const { record_dir: recordDir } = item;
    if (typeof recordDir !== 'string' || recordDir === '') continue;
    const file = 'results_file' in item && typeof item.results_file === 'string' && item.results_file !== '' ? item.results_file : undefined;
    return { recordDir, ...(file === undefined ? {} : { resultsFile: file }) };
  }
  return undefined;
}
