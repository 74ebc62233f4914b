// The runner's command line: a new assessment of a task list, or the resume of a run record.
import { parseArgs } from 'node:util';

export const USAGE = [
  'usage: assess [--tasks sample:1,arvo:14368,...] [--green URL[,URL...]] [--purple URL] [--concurrency N]',
  '       assess --resume <record folder> [--retry-failed] [--green URL] [--purple URL] [--concurrency N]',
  '',
  '  --resume FOLDER  go on with the run record in FOLDER (<run dir>/assessments/<record id>): run only its',
  "                   tasks without a valid result, with the record's solver and scoring settings",
  '  --retry-failed   with --resume: also run again the tasks that failed around the solver or were interrupted',
].join('\n');

/** Green agents that already run (none: the runner starts one), and the purple agent when one already runs. */
interface Agents {
  greens: string[];
  purple?: string;
}

export type RunnerOptions =
  | (Agents & { kind: 'assess'; tasks: string[]; concurrency: number })
  /** `concurrency` absent: the record's own. */
  | (Agents & { kind: 'resume'; folder: string; retryFailed: boolean; concurrency?: number });

/** A command line the runner cannot act on; the message says why, then how to call it. */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  constructor(problem: string) {
    super(problem === '' ? USAGE : `${problem}\n${USAGE}`);
  }
}

/** The options of `argv`; without `--tasks`, a new assessment takes `bundledSamples()`. */
export async function parseRunnerOptions(argv: string[], bundledSamples: () => Promise<string[]>): Promise<RunnerOptions> {
  const { values } = parseFlags(argv);
  if (values.help) throw new UsageError('');
  const agents = parseAgents(values.green, values.purple);
  const concurrency = values.concurrency === undefined ? undefined : parseConcurrency(values.concurrency);
  if (values.resume === undefined) {
    if (values['retry-failed']) throw new UsageError('--retry-failed goes with --resume <record folder>');
    const tasks = values.tasks ? splitList(values.tasks) : await bundledSamples();
    if (tasks.length === 0) throw new UsageError('no tasks to assess');
    return { kind: 'assess', ...agents, tasks, concurrency: concurrency ?? 1 };
  }
  if (values.resume.trim() === '') throw new UsageError('--resume needs the folder of a run record');
  if (values.tasks !== undefined) throw new UsageError('--resume runs the tasks of the record; leave out --tasks');
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
