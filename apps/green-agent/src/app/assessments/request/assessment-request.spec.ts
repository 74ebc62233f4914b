import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskLists } from '@arvo-rca/task-lists';
import { taskSources } from '../../task-assets';
import { TaskSourceRegistry } from '../../task-assets/task-source';
import { parseAssessmentRequest, type AssessmentParse } from './assessment-request';

// The green agent's own sources (arvo, sample) and the bundled task lists, as configured at boot.
const taskIds = new TaskSourceRegistry(taskSources({ ARVO_DATA_URL: 'https://data.example/arvo', SAMPLES_DIR: '/srv/samples' }), 'arvo');
const LISTS_DIR = join(__dirname, '../../../../../../task-lists');
const sources = { taskIds, lists: new TaskLists(LISTS_DIR) };
const purple = { purple_agent: 'http://127.0.0.1:9019' };
const valid = { participants: purple, config: { task_ids: ['sample:1', 14368, 'arvo:10055'], concurrency: 2 } };
const five = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

function parse(body: object): Promise<AssessmentParse> {
  return parseAssessmentRequest(JSON.stringify(body), [], sources);
}

async function taskIdsOf(parsing: Promise<AssessmentParse>): Promise<string[]> {
  const parsed = await parsing;
  if (parsed.kind !== 'request') throw new Error(`not a request: ${JSON.stringify(parsed)}`);
  return parsed.request.tasks.map((task) => task.taskId);
}

async function problemsOf(parsing: Promise<AssessmentParse>): Promise<string[]> {
  const parsed = await parsing;
  if (parsed.kind !== 'invalid') throw new Error(`not refused: ${JSON.stringify(parsed)}`);
  return parsed.problems;
}

describe('parseAssessmentRequest', () => {
  it('reads the AgentBeats form from a text part into tasks of the configured sources, bare ids being arvo tasks', async () => {
    expect(await parse(valid)).toEqual({
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

  it("sends the record's files when config.send_record is true, for a new assessment and a resume alike, and refuses a value that is no boolean", async () => {
    expect(await parse({ participants: purple, config: { task_ids: five, send_record: true } })).toMatchObject({
      request: { sendRecord: true, ignoredConfigKeys: [] },
    });
    expect(await parse({ participants: purple, config: { resume: 'r1', send_record: true } })).toMatchObject({ kind: 'resume', resume: { sendRecord: true } });
    expect(await parse({ participants: purple, config: { resume: 'r1' } })).toMatchObject({ kind: 'resume', resume: { sendRecord: false } });
    expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, send_record: 'yes' } }))).toEqual([
      'config.send_record must be true or false',
    ]);
    expect(await problemsOf(parse({ participants: purple, config: { resume: 'r1', send_record: 1 } }))).toEqual(['config.send_record must be true or false']);
  });

  it('reads it from a data part as well, and cuts the list to its first num_tasks with sample head', async () => {
    const config = { task_ids: ['sample:1', 'sample:2', 'sample:3'], num_tasks: 2, sample: 'head' };
    const parsed = await parseAssessmentRequest('', [{ participants: purple, config }], sources);

    expect(await taskIdsOf(Promise.resolve(parsed))).toEqual(['sample:1', 'sample:2']);
    expect(parsed).toMatchObject({ request: { concurrency: 1 } });
    expect(parsed).not.toHaveProperty('request.draw');
  });

  describe('shards', () => {
    it('gives task i of the list to shard i mod num_shards', async () => {
      expect(await taskIdsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 0, num_shards: 2 } }))).toEqual([
        'sample:1',
        'sample:3',
        'sample:5',
      ]);
      expect(await taskIdsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 1, num_shards: 2 } }))).toEqual(['sample:2', 'sample:4']);
    });

    it('splits the list after num_tasks has cut it', async () => {
      const config = { task_ids: five, num_tasks: 3, sample: 'head', shard_index: 1, num_shards: 2 };
      expect(await taskIdsOf(parse({ participants: purple, config }))).toEqual(['sample:2']);
    });

    it('cuts the whole list to num_instances (the leaderboard CI writes it flat beside the shard keys), then splits it', async () => {
      const config = { assessment_config: { task_ids: five }, num_instances: 3, shard_index: 0, num_shards: 2 };

      expect(await taskIdsOf(parse({ participants: purple, config }))).toEqual(['sample:1', 'sample:3']);
      expect(await taskIdsOf(parse({ participants: purple, config: { ...config, shard_index: 1 } }))).toEqual(['sample:2']);
      expect(await parse({ participants: purple, config })).toMatchObject({ request: { ignoredConfigKeys: [] } });
    });

    it('runs the fewer tasks of num_tasks and num_instances when both are given', async () => {
      const head = { task_ids: five, sample: 'head' };
      expect(await taskIdsOf(parse({ participants: purple, config: { ...head, num_tasks: 4, num_instances: 2 } }))).toEqual(['sample:1', 'sample:2']);
      expect(await taskIdsOf(parse({ participants: purple, config: { ...head, num_tasks: 1, num_instances: 2 } }))).toEqual(['sample:1']);
    });

    it('names a num_instances that is no whole number of at least 1', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, num_instances: 0 } }))).toEqual([
        'config.num_instances must be at least 1',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, num_instances: '3' } }))).toEqual([
        'config.num_instances must be a whole number',
      ]);
    });

    it('says which shard the request is, and gives a shard past the end of the list no task', async () => {
      const parsed = await parse({ participants: purple, config: { task_ids: ['sample:1'], shard_index: 2, num_shards: 3 } });

      expect(parsed).toMatchObject({ kind: 'request', request: { shard: { index: 2, count: 3 }, tasks: [] } });
    });

    it('names every bad shard value: negative, not whole, below 1, or an index not below the count', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: -1, num_shards: 0 } }))).toEqual([
        'config.shard_index must not be negative',
        'config.num_shards must be at least 1',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 0.5, num_shards: '2' } }))).toEqual([
        'config.shard_index must be a whole number',
        'config.num_shards must be a whole number',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 2, num_shards: 2 } }))).toEqual([
        'config.shard_index (2) must be below config.num_shards (2)',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, shard_index: 1 } }))).toEqual([
        'config.shard_index (1) must be below config.num_shards (1, as it is not given)',
      ]);
    });
  });

  describe('the assessment_config nesting', () => {
    const nested = { task_ids: five, num_tasks: 4, sample: 'head', concurrency: 3 };

    it('reads the task config from config.assessment_config when the top level names no task_ids, and the shard from the top level', async () => {
      const parsed = await parse({ participants: purple, config: { assessment_config: nested, shard_index: 1, num_shards: 2 } });

      expect(parsed).toMatchObject({ kind: 'request', request: { concurrency: 3, shard: { index: 1, count: 2 }, ignoredConfigKeys: [] } });
      expect(await taskIdsOf(Promise.resolve(parsed))).toEqual(['sample:2', 'sample:4']);
    });

    it('reads the shard from the nested object when the top level has none', async () => {
      const parsed = await parse({ participants: purple, config: { assessment_config: { ...nested, shard_index: 0, num_shards: 2 } } });

      expect(await taskIdsOf(Promise.resolve(parsed))).toEqual(['sample:1', 'sample:3']);
    });

    it('names a nested key the top level overrides as ignored', async () => {
      const parsed = await parse({ participants: purple, config: { assessment_config: { ...nested, num_shards: 5 }, shard_index: 0, num_shards: 2 } });

      expect(parsed).toMatchObject({ request: { shard: { index: 0, count: 2 }, ignoredConfigKeys: ['assessment_config.num_shards'] } });
    });

    it('names bad nested values by their place in the request', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { assessment_config: { task_ids: five, num_tasks: 0 }, num_shards: 1.5 } }))).toEqual([
        'config.assessment_config.num_tasks must be at least 1',
        'config.num_shards must be a whole number',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { assessment_config: { task_ids: ['sample:1', 'foo:1'] } } }))).toEqual([
        'config.assessment_config.task_ids[1]: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
      ]);
    });
  });

  it('accepts config keys it does not use, and names them, nested ones by their path', async () => {
    const parsed = await parse({
      participants: purple,
      config: { task_ids: five, timeout: 600, gateway: 'amber', assessment_config: { task_ids: ['sample:9'], max_turns: 1 } },
    });

    expect(parsed).toMatchObject({ kind: 'request', request: { ignoredConfigKeys: ['timeout', 'gateway', 'assessment_config'] } });
    expect(await taskIdsOf(Promise.resolve(parsed))).toEqual(five);
    const nested = await parse({ participants: purple, config: { assessment_config: { task_ids: five, max_turns: 1 }, env: 'prod' } });
    expect(nested).toMatchObject({ request: { ignoredConfigKeys: ['env', 'assessment_config.max_turns'] } });
  });

  it('refuses ids of no configured source and ids no source could hold, naming each', async () => {
    expect(await problemsOf(parse({ participants: purple, config: { task_ids: ['sample:1', 'foo:1', 'arvo:1.2', 'arvo:'] } }))).toEqual([
      'config.task_ids[1]: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
      'config.task_ids[2]: invalid task id "arvo:1.2": the id may hold only letters, digits, "_" and "-"; expected <source>:<id> such as arvo:14368',
      'config.task_ids[3]: invalid task id "arvo:": the id after "arvo:" is empty; expected <source>:<id> such as arvo:14368',
    ]);
  });

  describe('task lists', () => {
    let scratch: string;

    beforeAll(() => {
      scratch = mkdtempSync(join(tmpdir(), 'task-list-request-'));
    });

    afterAll(() => {
      rmSync(scratch, { recursive: true, force: true });
    });

    it("accepts the original's request: its list by the original's path, num_tasks drawn from it, the keys it does not use named", async () => {
      const original = { participants: purple, config: { task_ids_file: 'data/successful_task_ids.txt', num_tasks: 3, max_turns: 150 } };

      const parsed = await parse(original);

      expect(parsed).toMatchObject({
        kind: 'request',
        request: { ignoredConfigKeys: ['max_turns'], draw: { list: 'rcabench-clean-181', list_size: 181, seed: expect.any(Number) } },
      });
      const ids = await taskIdsOf(Promise.resolve(parsed));
      expect(ids).toHaveLength(3);
      expect(parsed).toMatchObject({ request: { draw: { task_ids: ids } } });
      const clean = (await sources.lists.read('rcabench-clean-181')).ids.map((id) => `arvo:${id}`);
      expect(ids.every((id) => clean.includes(id))).toBe(true);
    });

    it('reads a named list whole, in its order, its bare ids being ARVO tasks', async () => {
      expect(await taskIdsOf(parse({ participants: purple, config: { task_ids_file: 'samples' } }))).toEqual(five);
      const all = await taskIdsOf(parse({ participants: purple, config: { task_ids_file: '@rcabench-1000' } }));
      expect(all).toHaveLength(1000);
      expect(all.slice(0, 2)).toEqual(['arvo:10013', 'arvo:10055']);
    });

    it('reads the list nested under assessment_config, with the shard keys flat beside it', async () => {
      const config = { assessment_config: { task_ids_file: 'samples' }, shard_index: 1, num_shards: 2 };

      expect(await taskIdsOf(parse({ participants: purple, config }))).toEqual(['sample:2', 'sample:4']);
    });

    // The operator's folder of list files (TASK_LIST_FILES_DIR) is the scratch folder here.
    const withFiles = (body: object): Promise<AssessmentParse> =>
      parseAssessmentRequest(JSON.stringify(body), [], { taskIds, lists: new TaskLists(LISTS_DIR, { fileFolders: [LISTS_DIR, scratch] }) });

    it('reads a list file on its own side by its path, and names a line whose task no source holds by its number', async () => {
      const file = join(scratch, 'mine.txt');
      writeFileSync(file, '# two tasks\nsample:2\n14368\n');
      expect(await taskIdsOf(withFiles({ participants: purple, config: { task_ids_file: file } }))).toEqual(['sample:2', 'arvo:14368']);

      writeFileSync(file, 'sample:2\n\nfoo:3\n');
      expect(await problemsOf(withFiles({ participants: purple, config: { task_ids_file: file } }))).toEqual([
        `config.task_ids_file (${file}) line 3: unknown task source "foo" in task id "foo:3" (known sources: arvo, sample)`,
      ]);
    });

    it('names an unknown list, a file it cannot read and a line that is no task id, under the key that named them', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids_file: 'rcabench-2000' } }))).toEqual([
        'config.task_ids_file: there is no task list named "rcabench-2000" (known lists: rcabench-1000, rcabench-clean-181, samples; a file is named by a path such as ./my-list.txt)',
      ]);
      const missing = join(scratch, 'missing.txt');
      expect(await problemsOf(withFiles({ participants: purple, config: { task_ids_file: missing } }))).toEqual([
        `config.task_ids_file: task list file "${missing}" is not one this green agent reads: a list file must be a regular file in ${LISTS_DIR}, ${scratch} ` +
          '(or name a task list: rcabench-1000, rcabench-clean-181, samples)',
      ]);
      const bad = join(scratch, 'bad.txt');
      writeFileSync(bad, 'sample:1\nsample 2\n');
      expect(await problemsOf(withFiles({ participants: purple, config: { assessment_config: { task_ids_file: bad } } }))).toEqual([
        `config.assessment_config.task_ids_file: task list file ${bad}: line 2 is not a task id (one task id a line, such as arvo:14368 or 14368; # starts a comment)`,
      ]);
    });

    it('refuses task_ids beside task_ids_file, and a task_ids_file that names nothing', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, task_ids_file: 'samples' } }))).toEqual([
        'config.task_ids and config.task_ids_file both name the tasks; give one of them',
      ]);
      for (const file of ['', 3, ['samples']]) {
        expect(await problemsOf(parse({ participants: purple, config: { task_ids_file: file } }))).toEqual([
          'config.task_ids_file must name a task list (such as rcabench-clean-181) or a list file',
        ]);
      }
    });
  });

  describe('seeded sampling', () => {
    const drawOf = async (parsing: Promise<AssessmentParse>): Promise<unknown> => {
      const parsed = await parsing;
      return parsed.kind === 'request' ? parsed.request.draw : parsed;
    };

    // The draw an implementation of the documented algorithm in another language gives (Python integers).
    it('draws num_tasks of the list with the seed, in draw order, and keeps the draw for the record', async () => {
      const parsed = parse({ participants: purple, config: { task_ids: five, num_tasks: 3, seed: 7 } });

      expect(await taskIdsOf(parsed)).toEqual(['sample:3', 'sample:4', 'sample:5']);
      expect(await drawOf(parsed)).toEqual({ list: null, list_size: 5, seed: 7, task_ids: ['sample:3', 'sample:4', 'sample:5'] });
    });

    it('draws the same tasks for the same seed every time, and a seed when none is given that draws them again', async () => {
      const request = { participants: purple, config: { task_ids_file: 'rcabench-clean-181', num_tasks: 20 } };

      const first = (await drawOf(parse(request))) as { seed: number; task_ids: string[] };
      const again = await drawOf(parse({ ...request, config: { ...request.config, seed: first.seed } }));

      expect(again).toEqual(first);
      expect(await taskIdsOf(parse({ ...request, config: { ...request.config, seed: 7 } }))).toEqual(
        await taskIdsOf(parse({ ...request, config: { ...request.config, seed: 7 } })),
      );
    });

    it('takes the whole list in its order when num_tasks is its length, as the original does', async () => {
      expect(await taskIdsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 5, seed: 3 } }))).toEqual(five);
    });

    it('gives the shards of one seed the parts of one drawn list, which together are the whole draw', async () => {
      const config = { task_ids_file: 'rcabench-clean-181', num_tasks: 20, seed: 7, num_shards: 3 };

      const shards = await Promise.all([0, 1, 2].map((index) => parse({ participants: purple, config: { ...config, shard_index: index } })));

      const draws = await Promise.all(shards.map((shard) => drawOf(Promise.resolve(shard))));
      expect(new Set(draws.map((draw) => JSON.stringify(draw))).size).toBe(1);
      const drawn = (draws[0] as { task_ids: string[] }).task_ids;
      const parts = await Promise.all(shards.map((shard) => taskIdsOf(Promise.resolve(shard))));
      expect(parts.map((part) => part.length)).toEqual([7, 7, 6]);
      expect(parts[1]).toEqual(drawn.filter((_, position) => position % 3 === 1));
      expect(parts.flat().sort()).toEqual([...drawn].sort());
    });

    it('cuts the drawn list to num_instances before it is split, keeping the whole draw for the record', async () => {
      const parsed = parse({
        participants: purple,
        config: { task_ids_file: 'rcabench-1000', num_tasks: 6, seed: 11, num_instances: 4, shard_index: 0, num_shards: 2 },
      });

      const draw = (await drawOf(parsed)) as { task_ids: string[] };
      expect(draw.task_ids).toHaveLength(6);
      expect(await taskIdsOf(parsed)).toEqual([draw.task_ids[0], draw.task_ids[2]]);
    });

    it('names every problem of a sampling at once: num_tasks past the list, a seed that is no whole number, an unknown mode', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids_file: 'samples', num_tasks: 6, seed: 1.5, sample: 'first' } }))).toEqual([
        'config.seed must be a whole number from 0 to 4294967295',
        'config.sample must be one of random, head',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids_file: 'samples', num_tasks: 6, seed: '7' } }))).toEqual([
        'config.seed must be a whole number from 0 to 4294967295',
      ]);
      for (const seed of [-1, 2 ** 32]) {
        expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 2, seed } }))).toEqual([
          'config.seed must be a whole number from 0 to 4294967295',
        ]);
      }
      expect(await problemsOf(parse({ participants: { agent: 'nowhere' }, config: { task_ids_file: 'samples', num_tasks: 6 } }))).toEqual([
        'participants.agent must be the URL of the solver (the purple agent)',
        'config.num_tasks (6) is larger than the list, which holds 5 tasks',
      ]);
    });

    it('refuses a seed or a mode without num_tasks, a seed with the head, and a draw for shards without a seed', async () => {
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, seed: 7 } }))).toEqual([
        'config.seed says how config.num_tasks tasks are taken from the list; give config.num_tasks too',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 2, sample: 'head', seed: 7 } }))).toEqual([
        'config.seed draws nothing when config.sample is head (the first config.num_tasks tasks); leave one out',
      ]);
      expect(await problemsOf(parse({ participants: purple, config: { task_ids: five, num_tasks: 2, shard_index: 0, num_shards: 2 } }))).toEqual([
        'config.seed must be given when config.num_tasks tasks are drawn for 2 shards: each shard draws the same tasks only from the same seed',
      ]);
    });
  });

  describe('participants', () => {
    it("accepts the solver under the platform's role name, agent, as under purple_agent", async () => {
      expect(await parse({ participants: { agent: 'http://127.0.0.1:9019' }, config: { task_ids: five } })).toMatchObject({
        kind: 'request',
        request: { purpleUrl: 'http://127.0.0.1:9019' },
      });
      expect(await parse({ participants: { agent: 'http://127.0.0.1:9019' }, config: { resume: 'r1' } })).toMatchObject({
        kind: 'resume',
        resume: { purpleUrl: 'http://127.0.0.1:9019' },
      });
    });

    it('refuses a request that names the solver under both roles, or under neither', async () => {
      const both = { agent: 'http://127.0.0.1:9019', purple_agent: 'http://127.0.0.1:9020' };
      expect(await problemsOf(parse({ participants: both, config: { task_ids: five } }))).toEqual([
        'participants names the solver twice, as agent and purple_agent: name it once',
      ]);
      expect(await problemsOf(parse({ participants: { solver: 'http://127.0.0.1:9019' }, config: { task_ids: five } }))).toEqual([
        'participants must name the solver as agent (or purple_agent)',
      ]);
      expect(await problemsOf(parse({ participants: { agent: 'nowhere' }, config: { resume: 'r1' } }))).toEqual([
        'participants.agent must be the URL of the solver (the purple agent)',
      ]);
    });
  });

  it('names every problem of a bad request at once', async () => {
    const problems = await problemsOf(
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

  it('names missing parts and an empty task list', async () => {
    expect(await problemsOf(parse({ config: { task_ids: [] } }))).toEqual([
      'participants must be an object naming the solver as agent (or purple_agent)',
      'config.task_ids must name at least one task',
    ]);
    expect(await problemsOf(parse({ participants: purple }))).toEqual(['config must be an object with task_ids or task_ids_file']);
    expect(await problemsOf(parse({ participants: purple, config: { assessment_config: {} } }))).toEqual([
      'config.assessment_config.task_ids must be a list of task ids',
    ]);
  });

  it('says so when the text looks like JSON but is not', async () => {
    expect(await parseAssessmentRequest('{"participants": ', [], sources)).toEqual({
      kind: 'invalid',
      problems: [expect.stringMatching(/^the request is not valid JSON: /)],
    });
  });

  it('leaves texts that are no assessment request to others', async () => {
    expect(await parseAssessmentRequest('Task ID: arvo:14368', [], sources)).toEqual({ kind: 'none' });
    expect(await parseAssessmentRequest('{"hello": 1}', [], sources)).toEqual({ kind: 'none' });
  });
});
