// Green → driver, on the final status of an assessment: where the green agent saved the Result, as a
// data part beside the text (the Result itself is the artifact before it), e.g.
//   {"results_file": "logs/2026-11-23_19-40-00/results/assessment-....json"}

export interface AssessmentSaved {
  /** The path of the Result's JSON on the green agent's machine. */
  resultsFile: string;
}

export interface AssessmentSavedData {
  results_file: string;
}

export function formatAssessmentSaved(saved: AssessmentSaved): AssessmentSavedData {
  return { results_file: saved.resultsFile };
}

/** The first data part that says where a Result was saved; undefined when none does. */
export function parseAssessmentSaved(data: readonly unknown[]): AssessmentSaved | undefined {
  for (const item of data) {
    if (typeof item !== 'object' || item === null || !('results_file' in item)) continue;
    const file = item.results_file;
    if (typeof file === 'string' && file !== '') return { resultsFile: file };
  }
  return undefined;
}
