import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskLists } from '@arvo-rca/task-lists';
import { UsageError, type TaskChoice } from './runner-options';
import { chooseRunTasks } from './task-choice';

// As the runner reads them: its user's own list files, wherever they are.
const lists = new TaskLists(join(__dirname, '..', '..', 'task-lists'), { fileFolders: 'anywhere' });
// rcabench-clean-181's 20 drawn with seed 7, as an implementation of the documented draw in another language (Python integers) draws them.
const CLEAN_SEED_7 = '17715 34096 5496 25530 55886 18798 44610 11504 5494 42736 34013 31250 18152 4440 25885 55820 54949 49455 42479 44887'.split(' ');

describe("the runner's choice of tasks", () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'task-choice-'));
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  const choose = (list: TaskChoice['list'], sampling: TaskChoice['sampling'] = {}) => chooseRunTasks({ list, sampling }, lists);

  it('draws the same 20 of a named list with the same seed, and asks the green agents for the list by name with that seed', async () => {
    const first = await choose({ kind: 'named', name: 'rcabench-clean-181' }, { numTasks: 20, seed: 7 });
    const again = await choose({ kind: 'named', name: 'rcabench-clean-181' }, { numTasks: 20, seed: 7 });

    expect(first.tasks).toEqual(CLEAN_SEED_7);
    expect(again).toEqual(first);
    expect(first.config).toEqual({ task_ids_file: 'rcabench-clean-181', num_tasks: 20, seed: 7 });
    expect(first.how).toBe(`20 drawn from rcabench-clean-181 (181 tasks) with seed 7: ${CLEAN_SEED_7.join(', ')}`);
  });

  it('draws a seed when none is given, sends it, and says which it is', async () => {
    const chosen = await choose({ kind: 'named', name: 'rcabench-1000' }, { numTasks: 30 });

    const seed = chosen.config.seed ?? -1;
    expect(chosen.config).toEqual({ task_ids_file: 'rcabench-1000', num_tasks: 30, seed: expect.any(Number) });
    expect((await choose({ kind: 'named', name: 'rcabench-1000' }, { numTasks: 30, seed })).tasks).toEqual(chosen.tasks);
    expect(chosen.how).toMatch(
      new RegExp(`^30 drawn from rcabench-1000 \\(1000 tasks\\) with seed ${seed} \\(drawn here; --seed ${seed} draws them again\\): `),
    );
    expect(chosen.how).toMatch(/, \.\.\. \(10 more, all in the record\)$/);
  });

  it('sends the ids of a list file and of given ids, the head when asked, and the whole list without num_tasks', async () => {
    const file = join(scratch, 'mine');
    writeFileSync(file, '# mine\nsample:2\nsample:5\narvo:14368\n');

    expect(await choose({ kind: 'file', path: file }, { numTasks: 2, sample: 'head' })).toEqual({
      tasks: ['sample:2', 'sample:5'],
      config: { task_ids: ['sample:2', 'sample:5', 'arvo:14368'], num_tasks: 2, sample: 'head' },
      how: `the first 2 of ${file} (3 tasks): sample:2, sample:5`,
    });
    expect(await choose({ kind: 'ids', ids: ['sample:1', 'sample:3'] })).toEqual({
      tasks: ['sample:1', 'sample:3'],
      config: { task_ids: ['sample:1', 'sample:3'] },
    });
  });

  it('names an unknown list, an unreadable file, a bad line and a draw the list cannot give, as usage errors', async () => {
    const refusal = (list: TaskChoice['list'], sampling: TaskChoice['sampling'] = {}) => choose(list, sampling).catch((error: unknown) => error);
    writeFileSync(join(scratch, 'bad.txt'), 'sample:1\nsample: 2\n');

    const errors = [
      await refusal({ kind: 'named', name: 'rcabench-2000' }),
      await refusal({ kind: 'file', path: join(scratch, 'missing.txt') }),
      await refusal({ kind: 'file', path: join(scratch, 'bad.txt') }),
      await refusal({ kind: 'named', name: 'samples' }, { numTasks: 6 }),
      await refusal({ kind: 'ids', ids: ['sample:1'] }, { seed: 7 }),
    ];

    expect(errors.every((error) => error instanceof UsageError)).toBe(true);
    expect(errors.map((error) => (error as Error).message.split('\n')[0])).toEqual([
      '--tasks: there is no task list named "@rcabench-2000" (known lists: rcabench-1000, rcabench-clean-181, samples; a file is named by a path such as ./my-list.txt)',
      `--tasks-file: task list file ${join(scratch, 'missing.txt')} does not exist (looked for ${join(scratch, 'missing.txt')})`,
      `--tasks-file: task list file ${join(scratch, 'bad.txt')}: line 2 is not a task id (one task id a line, such as arvo:14368 or 14368; # starts a comment)`,
      '--num-tasks (6) is larger than the list, which holds 5 tasks',
      '--seed says how --num-tasks tasks are taken from the list; give --num-tasks too',
    ]);
  });
});
