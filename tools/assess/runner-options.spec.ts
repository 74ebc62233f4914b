import { parseRunnerOptions, UsageError, USAGE } from './runner-options';

const samples = async (): Promise<string[]> => ['sample:1', 'sample:2'];
const parse = (...argv: string[]) => parseRunnerOptions(argv, samples);

describe("the runner's command line", () => {
  it('assesses the bundled samples one at a time when given nothing', async () => {
    expect(await parse()).toEqual({ kind: 'assess', greens: [], tasks: ['sample:1', 'sample:2'], concurrency: 1 });
  });

  it('assesses the listed tasks on the listed agents', async () => {
    expect(await parse('--tasks', 'arvo:1, arvo:2', '--green', 'http://a:9009/,http://b:9009/', '--purple', 'http://p:9019/', '--concurrency', '3')).toEqual({
      kind: 'assess',
      greens: ['http://a:9009/', 'http://b:9009/'],
      purple: 'http://p:9019/',
      tasks: ['arvo:1', 'arvo:2'],
      concurrency: 3,
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
