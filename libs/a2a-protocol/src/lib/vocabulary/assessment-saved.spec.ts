import { formatAssessmentSaved, parseAssessmentSaved } from './assessment-saved';

describe('where an assessment is recorded', () => {
  it('travels as a data part, first with the record alone, and read back from among other data', () => {
    const data = formatAssessmentSaved({ recordDir: '/logs/run/assessments/a1' });

    expect(data).toEqual({ record_dir: '/logs/run/assessments/a1' });
    expect(parseAssessmentSaved([{ exit_status: 'Submitted' }, JSON.parse(JSON.stringify(data))])).toEqual({ recordDir: '/logs/run/assessments/a1' });
  });

  it('names the Result file once the assessment has ended', () => {
    const data = formatAssessmentSaved({ recordDir: '/logs/run/assessments/a1', resultsFile: '/logs/run/assessments/a1/result.json' });

    expect(parseAssessmentSaved([JSON.parse(JSON.stringify(data))])).toEqual({
      recordDir: '/logs/run/assessments/a1',
      resultsFile: '/logs/run/assessments/a1/result.json',
    });
  });

  it('is absent when no data part says it', () => {
    expect(parseAssessmentSaved([])).toBeUndefined();
    expect(parseAssessmentSaved(['record_dir', { record_dir: '' }, { record_dir: 3 }, { results_file: '/x.json' }, null])).toBeUndefined();
  });
});
