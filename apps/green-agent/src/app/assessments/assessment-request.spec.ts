import { parseAssessmentRequest } from './assessment-request';

const valid = { participants: { purple_agent: 'http://127.0.0.1:9019' }, config: { task_ids: ['sample:1', 14368, 'arvo:10055'], concurrency: 2 } };

describe('parseAssessmentRequest', () => {
  it('reads the AgentBeats form from a text part, normalising bare ids to arvo tasks', () => {
    expect(parseAssessmentRequest(JSON.stringify(valid), [])).toEqual({
      kind: 'request',
      request: { purpleUrl: 'http://127.0.0.1:9019', taskKeys: ['sample:1', 'arvo:14368', 'arvo:10055'], concurrency: 2 },
    });
  });

  it('reads it from a data part as well, and cuts the list to num_tasks', () => {
    const parsed = parseAssessmentRequest('', [{ ...valid, config: { task_ids: ['sample:1', 'sample:2', 'sample:3'], num_tasks: 2 } }]);

    expect(parsed).toMatchObject({ kind: 'request', request: { taskKeys: ['sample:1', 'sample:2'], concurrency: 1 } });
  });

  it('names every problem of a bad request at once', () => {
    const parsed = parseAssessmentRequest(
      JSON.stringify({ participants: { purple_agent: 'not a url' }, config: { task_ids: ['sample:1', 'a b', {}], concurrency: 0, num_tasks: 'two' } }),
      [],
    );

    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.problems).toEqual(
      expect.arrayContaining([
        'participants.purple_agent must be the URL of the purple agent',
        'config.concurrency must be at least 1',
        'config.num_tasks must be a whole number',
        'config.task_ids[1] ("a b") is not a task id such as "arvo:14368" or 14368',
        'config.task_ids[2] ({}) is not a task id such as "arvo:14368" or 14368',
      ]),
    );
  });

  it('names missing parts and an empty task list', () => {
    const parsed = parseAssessmentRequest(JSON.stringify({ config: { task_ids: [] } }), []);

    expect(parsed.kind === 'invalid' && parsed.problems).toEqual(
      expect.arrayContaining(['participants must be an object naming purple_agent', 'config.task_ids must name at least one task']),
    );
  });

  it('says so when the text looks like JSON but is not', () => {
    expect(parseAssessmentRequest('{"participants": ', [])).toEqual({ kind: 'invalid', problems: [expect.stringMatching(/^the request is not valid JSON: /)] });
  });

  it('leaves texts that are no assessment request to others', () => {
    expect(parseAssessmentRequest('Task ID: arvo:14368', [])).toEqual({ kind: 'none' });
    expect(parseAssessmentRequest('{"hello": 1}', [])).toEqual({ kind: 'none' });
  });
});
