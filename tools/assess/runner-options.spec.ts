import { parseRunnerOptions, UsageError, USAGE } from './runner-options';

const samples = async (): Promise<string[]> => ['sample:1', 'sample:2'];
const parse = (...argv: string[]) => parseRunnerOptions(argv, samples);

describe("the runner's command line", () => {
  it('assesses the bundled samples one at a time when given nothing', async () => {
    expect(await parse()).toEqual({
      kind: 'assess',
      greens: [],
      tasks: { list: { kind: 'ids', ids: ['sample:1', 'sample:2'] }, sampling: {} },
      concurrency: 1,
      dryRun: false,
    });
  });

  it('assesses the listed tasks on the listed agents', async () => {
    expect(await parse('--tasks', 'arvo:1, arvo:2', '--green', 'http://a:9009/,http://b:9009/', '--purple', 'http://p:9019/', '--concurrency', '3')).toEqual({
      kind: 'assess',
      greens: ['http://a:9009/', 'http://b:9009/'],
      purple: 'http://p:9019/',
      tasks: { list: { kind: 'ids', ids: ['arvo:1', 'arvo:2'] }, sampling: {} },
      concurrency: 3,
      dryRun: false,
    });
  });

  it('takes a named list after @, or a list file, with the number of tasks to draw, the seed and the way', async () => {
    expect(await parse('--tasks', '@rcabench-clean-181', '--num-tasks', '20', '--seed', '7')).toMatchObject({
      tasks: { list: { kind: 'named', name: 'rcabench-clean-181' }, sampling: { numTasks: 20, seed: 7 } },
    });
    expect(await parse('--tasks-file', 'lists/mine.txt', '--num-tasks', '2', '--sample', 'head', '--dry-run')).toMatchObject({
      tasks: { list: { kind: 'file', path: 'lists/mine.txt' }, sampling: { numTasks: 2, sample: 'head' } },
      dryRun: true,
    });
    expect(await parse('--num-tasks', '1', '--seed', '4294967295')).toMatchObject({
      tasks: { list: { kind: 'ids', ids: ['sample:1', 'sample:2'] }, sampling: { numTasks: 1, seed: 4294967295 } },
    });
  });

  it("resumes a record with the record's concurrency unless one is given", async () => {
    expect(await parse('--resume', 'logs/run/assessments/r1')).toEqual({ kind: 'resume', greens: [], folder: 'logs/run/assessments/r1', retryFailed: false });
    expect(await parse('--resume', 'r1', '--retry-failed', '--concurrency', '2', '--green', 'http://a:9009/')).toEqual({
      kind: 'resume',
      greens: ['http://a:9009/'],
      folder: 'r1',
      retryFailed: true,
      concurrency: 2,
    });
  });

  it.each([
    [['--retry-failed'], '--retry-failed goes with --resume <record folder>'],
    [['--resume', 'r1', '--tasks', 'sample:1'], '--resume runs the tasks of the record; leave out --tasks'],
    [['--resume', 'r1', '--green', 'http://a:9009/,http://b:9009/'], '--resume takes one green agent: a record belongs to the green agent that wrote it'],
    [['--resume', ''], '--resume needs the folder of a run record'],
    [['--concurrency', '0'], '--concurrency must be a whole number of at least 1'],
    [['--green', 'http://a:9009/,http://a:9009/'], '--green names a green agent twice'],
    [['--resmue', 'r1'], "Unknown option '--resmue'"],
    [['--tasks', 'sample:1', '--tasks-file', 'mine.txt'], '--tasks and --tasks-file both name the tasks; give one of them'],
    [['--tasks', '@samples,sample:1'], '--tasks @<list> names one task list, and nothing beside it'],
    [['--tasks-file', ' '], '--tasks-file needs the path of a task list file'],
    [['--num-tasks', '0'], '--num-tasks must be a whole number of at least 1'],
    [['--num-tasks', '2.5'], '--num-tasks must be a whole number of at least 1'],
    [['--num-tasks', '2', '--seed=-1'], '--seed must be a whole number from 0 to 4294967295'],
    [['--num-tasks', '2', '--seed', '0x10'], '--seed must be a whole number from 0 to 4294967295'],
    [['--num-tasks', '2', '--seed', '4294967296'], '--seed must be a whole number from 0 to 4294967295'],
    [['--num-tasks', '2', '--sample', 'first'], '--sample must be one of random, head'],
    [['--resume', 'r1', '--tasks-file', 'mine.txt'], '--resume runs the tasks of the record; leave out --tasks'],
    [['--resume', 'r1', '--seed', '7'], '--resume runs the tasks the record drew, drawing nothing; leave out --num-tasks, --seed and --sample'],
    [['--resume', 'r1', '--dry-run'], '--dry-run goes with a new assessment; a resume prints what it runs before it starts'],
  ])('refuses %j, saying why, then how to call it', async (argv, problem) => {
    const refusal = parse(...argv);

    await expect(refusal).rejects.toThrow(UsageError);
    await expect(refusal).rejects.toThrow(new RegExp(`^${escape(problem)}.*\\n${escape(USAGE)}$`, 's'));
  });

  it('answers --help with the usage, which names resume and retry', async () => {
    await expect(parse('--help')).rejects.toThrow(USAGE);
    expect(USAGE).toMatch(/--resume <record folder> \[--retry-failed\]/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
