// The runner's command line: a new assessment of a task list, or the resume of a run record.
import { parseArgs } from 'node:util';
import { isSeed, MAX_SEED, SAMPLE_MODES, type SampleMode, type TaskSampling } from '@arvo-rca/task-lists';

export const USAGE = [
  'usage: assess [--tasks sample:1,arvo:14368,... | --tasks @<list> | --tasks-file FILE] [--num-tasks N [--seed S | --sample head]]',
  '              [--green URL[,URL...]] [--purple URL] [--concurrency N] [--dry-run]',
  '       assess --resume <record folder> [--retry-failed] [--green URL] [--purple URL] [--concurrency N]',
  '',
  '  --tasks @<list>  a named task list: rcabench-1000, rcabench-clean-181, samples (task-lists/)',
  '  --tasks-file F   a task list file here: one task id a line, # starts a comment',
  '  --num-tasks N    draw N tasks of the list with the seed (--seed, else a fresh one, printed and recorded);',
  '                   with --sample head, take its first N',
  '  --dry-run        print the tasks the assessment would run, and run nothing',
  '  --resume FOLDER  go on with the run record in FOLDER (<run dir>/assessments/<record id>): run only its',
  "                   tasks without a valid result, with the record's solver and scoring settings",
  '  --retry-failed   with --resume: also run again the tasks that failed around the solver or were interrupted',
].join('\n');

/** Green agents that already run (none: the runner starts one), and the purple agent when one already runs. */
interface Agents {
  greens: string[];
  purple?: string;
}

/** Where a new assessment's list comes from: ids given here (or the bundled samples), a named list, a list file here. */
export type TaskListChoice = { kind: 'ids'; ids: string[] } | { kind: 'named'; name: string } | { kind: 'file'; path: string };

/** The tasks of a new assessment: a list, and how many of it, how taken. */
export interface TaskChoice {
  list: TaskListChoice;
  sampling: TaskSampling;
}

export type RunnerOptions =
  | (Agents & { kind: 'assess'; tasks: TaskChoice; concurrency: number; dryRun: boolean })
  /** `concurrency` absent: the record's own. */
  | (Agents & { kind: 'resume'; folder: string; retryFailed: boolean; concurrency?: number });

/** A command line the runner cannot act on; the message says why, then how to call it. */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  constructor(problem: string) {
    super(problem === '' ? USAGE : `${problem}\n${USAGE}`);
  }
}

/** The options of `argv`; without `--tasks` or `--tasks-file`, a new assessment takes `bundledSamples()`. */
export async function parseRunnerOptions(argv: string[], bundledSamples: () => Promise<string[]>): Promise<RunnerOptions> {
  const { values } = parseFlags(argv);
  if (values.help) throw new UsageError('');
  const agents = parseAgents(values.green, values.purple);
  const concurrency = values.concurrency === undefined ? undefined : parseConcurrency(values.concurrency);
  const sampling = parseSampling(values['num-tasks'], values.seed, values.sample);
  if (values.resume === undefined) {
    if (values['retry-failed']) throw new UsageError('--retry-failed goes with --resume <record folder>');
    const list = await parseTaskList(values.tasks, values['tasks-file'], bundledSamples);
    return { kind: 'assess', ...agents, tasks: { list, sampling }, concurrency: concurrency ?? 1, dryRun: values['dry-run'] ?? false };
  }
  if (values.resume.trim() === '') throw new UsageError('--resume needs the folder of a run record');
  if (values.tasks !== undefined || values['tasks-file'] !== undefined) throw new UsageError('--resume runs the tasks of the record; leave out --tasks');
  if (Object.keys(sampling).length > 0)
    throw new UsageError('--resume runs the tasks the record drew, drawing nothing; leave out --num-tasks, --seed and --sample');
  if (values['dry-run']) throw new UsageError('--dry-run goes with a new assessment; a resume prints what it runs before it starts');
  if (agents.greens.length > 1) throw new UsageError('--resume takes one green agent: a record belongs to the green agent that wrote it');
  return {
    kind: 'resume',
    ...agents,
    folder: values.resume,
    retryFailed: values['retry-failed'] ?? false,
    ...(concurrency === undefined ? {} : { concurrency }),
  };
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        tasks: { type: 'string' },
        'tasks-file': { type: 'string' },
        'num-tasks': { type: 'string' },
        seed: { type: 'string' },
        sample: { type: 'string' },
        'dry-run': { type: 'boolean' },
        green: { type: 'string' },
        purple: { type: 'string' },
        concurrency: { type: 'string' },
        resume: { type: 'string' },
        'retry-failed': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseAgents(green: string | undefined, purple: string | undefined): Agents {
  const greens = splitList(green ?? '');
  if (new Set(greens).size !== greens.length) throw new UsageError('--green names a green agent twice');
  return { greens, ...(purple === undefined ? {} : { purple }) };
}

/** `--tasks` as ids or as `@<list>`, or `--tasks-file`; neither, the bundled samples. */
async function parseTaskList(tasks: string | undefined, file: string | undefined, bundledSamples: () => Promise<string[]>): Promise<TaskListChoice> {
  if (tasks !== undefined && file !== undefined) throw new UsageError('--tasks and --tasks-file both name the tasks; give one of them');
  if (file !== undefined) {
    if (file.trim() === '') throw new UsageError('--tasks-file needs the path of a task list file');
    return { kind: 'file', path: file };
  }
  const ids = tasks === undefined ? await bundledSamples() : splitList(tasks);
  const named = ids.filter((id) => id.startsWith('@'));
  if (named.length > 0) {
    if (ids.length > 1) throw new UsageError('--tasks @<list> names one task list, and nothing beside it');
    return { kind: 'named', name: named[0].slice(1) };
  }
  if (ids.length === 0) throw new UsageError('no tasks to assess');
  return { kind: 'ids', ids };
}

/** --num-tasks, --seed and --sample, each checked alone; how they go together is checked with the list. */
function parseSampling(numTasks: string | undefined, seed: string | undefined, sample: string | undefined): TaskSampling {
  const sampling: TaskSampling = {};
  if (numTasks !== undefined) {
    sampling.numTasks = Number(numTasks);
    if (!/^\d+$/.test(numTasks.trim()) || sampling.numTasks < 1) throw new UsageError('--num-tasks must be a whole number of at least 1');
  }
  if (seed !== undefined) {
    sampling.seed = Number(seed);
    if (!/^\d+$/.test(seed.trim()) || !isSeed(sampling.seed)) throw new UsageError(`--seed must be a whole number from 0 to ${MAX_SEED}`);
  }
  if (sample !== undefined) {
    if (!(SAMPLE_MODES as readonly string[]).includes(sample)) throw new UsageError(`--sample must be one of ${SAMPLE_MODES.join(', ')}`);
    sampling.sample = sample as SampleMode;
  }
  return sampling;
}

function parseConcurrency(text: string): number {
  const concurrency = Number(text);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError('--concurrency must be a whole number of at least 1');
  return concurrency;
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
