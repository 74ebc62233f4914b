// The runner: `npm start` assesses every bundled sample; `npm run assess -- --tasks <ids> [--green URL[,URL...]]
// [--purple URL] [--concurrency N]` assesses the given tasks. Without URLs it starts both agents from
// their builds, sharing one run log directory; with URLs it drives agents that already run. Several green
// URLs spread the list over them (green i runs shard i of n), and their Results are combined into one.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { A2aClientFactory, parseAssessmentSaved, parseTaskProgressData } from '@arvo-rca/a2a-protocol';
import { listSampleIds } from '@arvo-rca/arvo-docker';
import type { AssessmentResult } from '@arvo-rca/rca-eval';
import { runDirectoryName } from '@arvo-rca/task-logging';
import { freePort, launchAgent, ROOT, stopAgent, waitForCard, type LaunchedAgent } from './agent-launcher';
import { combineShardReports, saveCombinedResult, shardRequests, type ShardReport, type ShardRequest } from './green-shards';
import { LiveDisplay } from './live-display';
import { formatResultsTable } from './results-table';
import { pickSandbox, sandboxChoice, type SandboxPick } from './sandbox-check';

const USAGE = 'usage: assess [--tasks sample:1,arvo:14368,...] [--green URL[,URL...]] [--purple URL] [--concurrency N]';

interface Options {
  tasks: string[];
  /** Green agents that already run; none: the runner starts one. */
  greens: string[];
  purple?: string;
  concurrency: number;
}

async function parseOptions(argv: string[]): Promise<Options> {
  const { values } = parseArgs({
    args: argv,
    options: { tasks: { type: 'string' }, green: { type: 'string' }, purple: { type: 'string' }, concurrency: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) throw new Error(USAGE);
  const concurrency = Number(values.concurrency ?? 1);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency must be a whole number of at least 1\n${USAGE}`);
  const tasks = values.tasks ? values.tasks.split(',').map((task) => task.trim()).filter(Boolean) : (await listSampleIds(join(ROOT, 'samples'))).map((id) => `sample:${id}`);
  if (tasks.length === 0) throw new Error(`no tasks to assess\n${USAGE}`);
  const greens = (values.green ?? '').split(',').map((url) => url.trim()).filter(Boolean);
  if (new Set(greens).size !== greens.length) throw new Error(`--green names a green agent twice\n${USAGE}`);
  return { tasks, greens, purple: values.purple, concurrency };
}

/** Said on the terminal before any agent starts: the sandbox, and a plain warning when nothing is isolated. */
async function checkSandbox(): Promise<SandboxPick> {
  const pick = await pickSandbox(sandboxChoice(process.env, ROOT));
  console.log(pick.line);
  if (pick.warning) console.warn(pick.warning);
  return pick;
}

async function startAgents(options: Options, runDir: string, sandbox?: SandboxPick): Promise<{ greens: string[]; purple: string; launched: LaunchedAgent[] }> {
  const launched: LaunchedAgent[] = [];
  const greens = options.greens.length > 0 ? options.greens : [`http://127.0.0.1:${await freePort()}/`];
  const purple = options.purple ?? `http://127.0.0.1:${await freePort()}/`;
  // The purple agent is told no green URL: the green agent drives each task's conversation (reply mode), as on AgentBeats.
  const shared = { LOG_RUN_DIR: runDir, PURPLE_AGENT_URL: purple };
  if (sandbox) launched.push(launchAgent('green-agent', Number(new URL(greens[0]).port), { ...shared, SANDBOX: sandbox.sandbox }, runDir));
  if (!options.purple) launched.push(launchAgent('purple-agent', Number(new URL(purple).port), shared, runDir));
  const byUrl = new Map(launched.map((agent) => [agent.url, agent.child]));
  const cards = await Promise.all([...greens, purple].map((url) => waitForCard(url, byUrl.get(url))));
  greens.forEach((green, index) => console.log(`green agent:  ${green} (${cards[index]['name']})`));
  console.log(`purple agent: ${purple} (${cards[greens.length]['name']})`);
  return { greens, purple, launched };
}

/** Runs one green agent's shard, feeding the shared display; its Result and where it saved it, read from data parts. */
async function assessShard({ green, request }: ShardRequest, display: LiveDisplay): Promise<ShardReport> {
  let result: AssessmentResult | undefined;
  let file: string | undefined;
  let final = '';
  for await (const event of new A2aClientFactory({ token: process.env['A2A_TOKEN'] }).peer(green).streamText(randomUUID(), JSON.stringify(request))) {
    if (event.kind === 'artifact' && event.name === 'Result') result = event.data[0] as AssessmentResult;
    if (event.kind === 'status') {
      const line = parseTaskProgressData(event.data);
      if (line) display.update(line);
      file = parseAssessmentSaved(event.data)?.resultsFile ?? file;
    }
    if (event.kind !== 'artifact') final = event.text;
  }
  if (!result) throw new Error(`the green agent at ${green} returned no Result: ${final}`);
  return { green, result, file };
}

/** Every green agent's shard at once, then one Result; a green that fails is named once all have ended. */
async function assess(options: Options, greens: string[], purple: string): Promise<ShardReport[]> {
  const display = new LiveDisplay(options.tasks.length);
  try {
    const settled = await Promise.allSettled(shardRequests(greens, purple, options.tasks, options.concurrency).map((shard) => assessShard(shard, display)));
    const failures = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)] : []));
    if (failures.length > 0) throw new Error(failures.join('\n'));
    return settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  } finally {
    display.stop();
  }
}

/** The Result to show and the file that holds it: one green's own file, or the combined Result saved here. */
async function resultOf(reports: ShardReport[], runDir: string): Promise<{ result: AssessmentResult; file: string }> {
  if (reports.length === 1) return { result: reports[0].result, file: reports[0].file ?? '(not saved)' };
  for (const { green, result, file } of reports) console.log(`shard ${result.shard.index} of ${result.shard.count} (${green}): ${file ?? '(not saved)'}`);
  const result = combineShardReports(reports);
  return { result, file: await saveCombinedResult(result, runDir) };
}

async function main(): Promise<void> {
  const options = await parseOptions(process.argv.slice(2));
  // Only a green agent this runner starts runs the solver's commands here.
  const sandbox = options.greens.length > 0 ? undefined : await checkSandbox();
  const runDir = process.env['LOG_RUN_DIR'] ?? join(ROOT, 'logs', runDirectoryName(new Date()));
  mkdirSync(runDir, { recursive: true });
  const { greens, purple, launched } = await startAgents(options, runDir, sandbox);
  const stopAll = (): Promise<void[]> => Promise.all(launched.map(stopAgent));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    const spread = greens.length > 1 ? ` on each of ${greens.length} green agents` : '';
    console.log(`assessing ${options.tasks.length} task(s), ${options.concurrency} at a time${spread}\n`);
    const { result, file } = await resultOf(await assess(options, greens, purple), runDir);
    console.log(`\n${formatResultsTable(result)}\n\n${result.n_scored} of ${result.n_tasks} scored in ${result.time_used}s`);
    console.log(`results: ${file}\nlogs:    ${runDir}`);
  } finally {
    await stopAll();
  }
}

main().catch((error: Error) => {
  console.error(`assess: ${error.message}`);
  process.exit(1);
});
