import { taskSources } from '../task-assets';
import { TaskSourceRegistry } from '../task-assets/task-source';
import { parseAssessmentRequest, type AssessmentParse } from './assessment-request';

// The green agent's own sources (arvo, sample), as configured at boot.
const sources = new TaskSourceRegistry(taskSources({ ARVO_DATA_URL: 'https://data.example/arvo', SAMPLES_DIR: '/srv/samples' }), 'arvo');
const purple = { purple_agent: 'http://127.0.0.1:9019' };
const valid = { participants: purple, config: { task_ids: ['sample:1', 14368, 'arvo:10055'], concurrency: 2 } };
const five = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

function parse(body: object): AssessmentParse {
  return parseAssessmentRequest(JSON.stringify(body), [], sources);
}

function taskIdsOf(parsed: AssessmentParse): string[] {
  if (parsed.kind !== 'request') throw new Error(`not a request: ${JSON.stringify(parsed)}`);
  return parsed.request.tasks.map((task) => task.taskId);
}

function problemsOf(parsed: AssessmentParse): string[] {
  if (parsed.kind !== 'invalid') throw new Error(`not refused: ${JSON.stringify(parsed)}`);
  return parsed.problems;
}

describe('parseAssessmentRequest', () => {
  it('reads the AgentBeats form from a text part into tasks of the configured sources, bare ids being arvo tasks', () => {
    expect(parse(valid)).toEqual({
      kind: 'request',
      request: {
        purpleUrl: 'http://127.0.0.1:9019',
        tasks: [
          { source: 'sample', id: '1', taskId: 'sample:1' },
          { source: 'arvo', id: '14368', taskId: 'arvo:14368' },
          { source: 'arvo', id: '10055', taskId: 'arvo:10055' },
        ],
        concurrency: 2,
        shard: { index: 0, count: 1 },
        ignoredConfigKeys: [],
        sendRecord: false,
      },
    });
  });

  it("sends the record's files when config.send_record is true, for a new assessment and a resume alike, and refuses a value that is no boolean", () => {
    expect(parse({ participants: purple, config: { task_ids: five, send_record: true } })).toMatchObject({
      request: { sendRecord: true, ignoredConfigKeys: [] },
    });
    expect(parse({ participants: purple, config: { resume: 'r1', send_record: true } })).toMatchObject({ kind: 'resume', resume: { sendRecord: true } });
    expect(parse({ participants: purple, config: { resume: 'r1' } })).toMatchObject({ kind: 'resume', resume: { sendRecord: false } });
    expect(problemsOf(parse({ participants: purple, config: { task_ids: five, send_record: 'yes' } }))).toEqual(['config.send_record must be true or false']);
    expect(problemsOf(parse({ participants: purple, config: { resume: 'r1', send_record: 1 } }))).toEqual(['config.send_record must be true or false']);
  });

  it('reads it from a data part as well, and cuts the list to num_tasks', () => {
    const parsed = parseAssessmentRequest('', [{ participants: purple, config: { task_ids: ['sample:1', 'sample:2', 'sample:3'], num_tasks: 2 } }], sources);

    expect(taskIdsOf(parsed)).toEqual(['sample:1', 'sample:2']);
    expect(parsed).toMatchObject({ request: { concurrency: 1 } });
  });

  describe('shards', () => {
    it('gives task i of the list to shard i mod num_shards', () => {
      expect(taskIdsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 0, num_shards: 2 } }))).toEqual([
        'sample:1',
        'sample:3',
        'sample:5',
      ]);
      expect(taskIdsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 1, num_shards: 2 } }))).toEqual(['sample:2', 'sample:4']);
    });

    it('splits the list after num_tasks has cut it', () => {
      expect(taskIdsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 3, shard_index: 1, num_shards: 2 } }))).toEqual(['sample:2']);
    });

    it('cuts the whole list to num_instances (the leaderboard CI writes it flat beside the shard keys), then splits it', () => {
      const config = { assessment_config: { task_ids: five }, num_instances: 3, shard_index: 0, num_shards: 2 };

      expect(taskIdsOf(parse({ participants: purple, config }))).toEqual(['sample:1', 'sample:3']);
      expect(taskIdsOf(parse({ participants: purple, config: { ...config, shard_index: 1 } }))).toEqual(['sample:2']);
      expect(parse({ participants: purple, config })).toMatchObject({ request: { ignoredConfigKeys: [] } });
    });

    it('runs the fewer tasks of num_tasks and num_instances when both are given', () => {
      expect(taskIdsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 4, num_instances: 2 } }))).toEqual(['sample:1', 'sample:2']);
      expect(taskIdsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 1, num_instances: 2 } }))).toEqual(['sample:1']);
    });

    it('names a num_instances that is no whole number of at least 1', () => {
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, num_instances: 0 } }))).toEqual(['config.num_instances must be at least 1']);
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, num_instances: '3' } }))).toEqual([
        'config.num_instances must be a whole number',
      ]);
    });

    it('says which shard the request is, and gives a shard past the end of the list no task', () => {
      const parsed = parse({ participants: purple, config: { task_ids: ['sample:1'], shard_index: 2, num_shards: 3 } });

      expect(parsed).toMatchObject({ kind: 'request', request: { shard: { index: 2, count: 3 }, tasks: [] } });
    });

    it('names every bad shard value: negative, not whole, below 1, or an index not below the count', () => {
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: -1, num_shards: 0 } }))).toEqual([
        'config.shard_index must not be negative',
        'config.num_shards must be at least 1',
      ]);
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 0.5, num_shards: '2' } }))).toEqual([
        'config.shard_index must be a whole number',
        'config.num_shards must be a whole number',
      ]);
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 2, num_shards: 2 } }))).toEqual([
        'config.shard_index (2) must be below config.num_shards (2)',
      ]);
      expect(problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 1 } }))).toEqual([
        'config.shard_index (1) must be below config.num_shards (1, as it is not given)',
      ]);
    });
  });

  describe('the assessment_config nesting', () => {
    const nested = { task_ids: five, num_tasks: 4, concurrency: 3 };

    it('reads the task config from config.assessment_config when the top level names no task_ids, and the shard from the top level', () => {
      const parsed = parse({ participants: purple, config: { assessment_config: nested, shard_index: 1, num_shards: 2 } });

      expect(parsed).toMatchObject({ kind: 'request', request: { concurrency: 3, shard: { index: 1, count: 2 }, ignoredConfigKeys: [] } });
      expect(taskIdsOf(parsed)).toEqual(['sample:2', 'sample:4']);
    });

    it('reads the shard from the nested object when the top level has none', () => {
      const parsed = parse({ participants: purple, config: { assessment_config: { ...nested, shard_index: 0, num_shards: 2 } } });

      expect(taskIdsOf(parsed)).toEqual(['sample:1', 'sample:3']);
    });

    it('names a nested key the top level overrides as ignored', () => {
      const parsed = parse({ participants: purple, config: { assessment_config: { ...nested, num_shards: 5 }, shard_index: 0, num_shards: 2 } });

      expect(parsed).toMatchObject({ request: { shard: { index: 0, count: 2 }, ignoredConfigKeys: ['assessment_config.num_shards'] } });
    });

    it('names bad nested values by their place in the request', () => {
      expect(problemsOf(parse({ participants: purple, config: { assessment_config: { task_ids: five, num_tasks: 0 }, num_shards: 1.5 } }))).toEqual([
        'config.assessment_config.num_tasks must be at least 1',
        'config.num_shards must be a whole number',
      ]);
      expect(problemsOf(parse({ participants: purple, config: { assessment_config: { task_ids: ['sample:1', 'foo:1'] } } }))).toEqual([
        'config.assessment_config.task_ids[1]: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
      ]);
    });
  });

  it('accepts config keys it does not use, and names them, nested ones by their path', () => {
    const parsed = parse({
      participants: purple,
      config: { task_ids: five, timeout: 600, gateway: 'amber', assessment_config: { task_ids: ['sample:9'], seed: 1 } },
    });

    expect(parsed).toMatchObject({ kind: 'request', request: { ignoredConfigKeys: ['timeout', 'gateway', 'assessment_config'] } });
    expect(taskIdsOf(parsed)).toEqual(five);
    const nested = parse({ participants: purple, config: { assessment_config: { task_ids: five, seed: 1 }, env: 'prod' } });
    expect(nested).toMatchObject({ request: { ignoredConfigKeys: ['env', 'assessment_config.seed'] } });
  });

  it('refuses ids of no configured source and ids no source could hold, naming each', () => {
    expect(problemsOf(parse({ participants: purple, config: { task_ids: ['sample:1', 'foo:1', 'arvo:1.2', 'arvo:'] } }))).toEqual([
      'config.task_ids[1]: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
      'config.task_ids[2]: invalid task id "arvo:1.2": the id may hold only letters, digits, "_" and "-"; expected <source>:<id> such as arvo:14368',
      'config.task_ids[3]: invalid task id "arvo:": the id after "arvo:" is empty; expected <source>:<id> such as arvo:14368',
    ]);
  });

  describe('participants', () => {
    it("accepts the solver under the platform's role name, agent, as under purple_agent", () => {
      expect(parse({ participants: { agent: 'http://127.0.0.1:9019' }, config: { task_ids: five } })).toMatchObject({
        kind: 'request',
        request: { purpleUrl: 'http://127.0.0.1:9019' },
      });
      expect(parse({ participants: { agent: 'http://127.0.0.1:9019' }, config: { resume: 'r1' } })).toMatchObject({
        kind: 'resume',
        resume: { purpleUrl: 'http://127.0.0.1:9019' },
      });
    });

    it('refuses a request that names the solver under both roles, or under neither', () => {
      const both = { agent: 'http://127.0.0.1:9019', purple_agent: 'http://127.0.0.1:9020' };
      expect(problemsOf(parse({ participants: both, config: { task_ids: five } }))).toEqual([
        'participants names the solver twice, as agent and purple_agent: name it once',
      ]);
      expect(problemsOf(parse({ participants: { solver: 'http://127.0.0.1:9019' }, config: { task_ids: five } }))).toEqual([
        'participants must name the solver as agent (or purple_agent)',
      ]);
      expect(problemsOf(parse({ participants: { agent: 'nowhere' }, config: { resume: 'r1' } }))).toEqual([
        'participants.agent must be the URL of the solver (the purple agent)',
      ]);
    });
  });

  it('names every problem of a bad request at once', () => {
    const problems = problemsOf(
      parse({ participants: { purple_agent: 'not a url' }, config: { task_ids: ['sample:1', 'a b', {}], concurrency: 0, num_tasks: 'two', shard_index: -2 } }),
    );

    expect(problems).toEqual(
      expect.arrayContaining([
        'participants.purple_agent must be the URL of the solver (the purple agent)',
        'config.concurrency must be at least 1',
        'config.num_tasks must be a whole number',
        'config.shard_index must not be negative',
        'config.task_ids[1]: invalid task id "a b": the id may hold only letters, digits, "_" and "-"; expected <source>:<id> such as arvo:14368',
        'config.task_ids[2] ({}) is not a task id such as "arvo:14368" or 14368',
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it('names missing parts and an empty task list', () => {
    expect(problemsOf(parse({ config: { task_ids: [] } }))).toEqual([
      'participants must be an object naming the solver as agent (or purple_agent)',
      'config.task_ids must name at least one task',
    ]);
    expect(problemsOf(parse({ participants: purple }))).toEqual(['config must be an object with task_ids']);
    expect(problemsOf(parse({ participants: purple, config: { assessment_config: {} } }))).toEqual([
      'config.assessment_config.task_ids must be a list of task ids',
    ]);
  });

  it('says so when the text looks like JSON but is not', () => {
    expect(parseAssessmentRequest('{"participants": ', [], sources)).toEqual({
      kind: 'invalid',
      problems: [expect.stringMatching(/^the request is not valid JSON: /)],
    });
  });

  it('leaves texts that are no assessment request to others', () => {
    expect(parseAssessmentRequest('Task ID: arvo:14368', [], sources)).toEqual({ kind: 'none' });
    expect(parseAssessmentRequest('{"hello": 1}', [], sources)).toEqual({ kind: 'none' });
  });
});
