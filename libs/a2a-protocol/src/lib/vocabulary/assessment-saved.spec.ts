import { formatAssessmentSaved, parseAssessmentSaved } from './assessment-saved';

describe('where an assessment saved its Result', () => {
  it('travels as a data part and is read back from among the final status data', () => {
    const data = formatAssessmentSaved({ resultsFile: '/logs/run/results/assessment-1.json' });

    expect(data).toEqual({ results_file: '/logs/run/results/assessment-1.json' });
    expect(parseAssessmentSaved([{ exit_status: 'Submitted' }, JSON.parse(JSON.stringify(data))])).toEqual({ resultsFile: '/logs/run/results/assessment-1.json' });
  });

  it('is absent when no data part says it', () => {
    expect(parseAssessmentSaved([])).toBeUndefined();
    expect(parseAssessmentSaved(['results_file', { results_file: '' }, { results_file: 3 }, null])).toBeUndefined();
  });
});
