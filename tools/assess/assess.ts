// The runner: `npm start` assesses every bundled sample; `npm run assess -- --tasks <ids> [--green URL]
// [--purple URL] [--concurrency N]` assesses the given tasks. Without URLs it starts both agents from
// their builds, sharing one run log directory; with URLs it drives agents that already run.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { A2aClientFactory, parseTaskProgress } from '@arvo-rca/a2a-protocol';
import { listSampleIds } from '@arvo-rca/arvo-docker';
import type { AssessmentResult } from '@arvo-rca/rca-eval';
import { runDirectoryName } from '@arvo-rca/task-logging';
import { freePort, launchAgent, ROOT, stopAgent, waitForCard, type LaunchedAgent } from './agent-launcher';
import { LiveDisplay } from './live-display';
import { formatResultsTable } from './results-table';
import { pickSandbox, sandboxChoice, type SandboxPick } from './sandbox-check';

const USAGE = 'usage: assess [--tasks sample:1,arvo:14368,...] [--green URL] [--purple URL] [--concurrency N]';

interface Options {
  tasks: string[];
  green?: string;
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
  return { tasks, green: values.green, purple: values.purple, concurrency };
}

/** Said on the terminal before any agent starts: the sandbox, and a plain warning when nothing is isolated. */
async function checkSandbox(): Promise<SandboxPick> {
  const pick = await pickSandbox(sandboxChoice(process.env, ROOT));
  console.log(pick.line);
  if (pick.warning) console.warn(pick.warning);
  return pick;
}

async function startAgents(options: Options, runDir: string, sandbox?: SandboxPick): Promise<{ green: string; purple: string; launched: LaunchedAgent[] }> {
  const launched: LaunchedAgent[] = [];
  const green = options.green ?? `http://127.0.0.1:${await freePort()}/`;
  const purple = options.purple ?? `http://127.0.0.1:${await freePort()}/`;
  const shared = { LOG_RUN_DIR: runDir, GREEN_AGENT_URL: green, PURPLE_AGENT_URL: purple };
  if (sandbox) launched.push(launchAgent('green-agent', Number(new URL(green).port), { ...shared, SANDBOX: sandbox.sandbox }, runDir));
  if (!options.purple) launched.push(launchAgent('purple-agent', Number(new URL(purple).port), shared, runDir));
  const byUrl = new Map(launched.map((agent) => [agent.url, agent.child]));
  const [greenCard, purpleCard] = await Promise.all([waitForCard(green, byUrl.get(green)), waitForCard(purple, byUrl.get(purple))]);
  console.log(`green agent:  ${green} (${greenCard['name']})`);
  console.log(`purple agent: ${purple} (${purpleCard['name']}; ${/Model: (\S+)\.$/.exec(String(purpleCard['description']))?.[1] ?? 'model not stated'})`);
  return { green, purple, launched };
}

async function assess(options: Options, green: string, purple: string): Promise<{ result: AssessmentResult; file: string }> {
  const request = { participants: { purple_agent: purple }, config: { task_ids: options.tasks, concurrency: options.concurrency } };
  const display = new LiveDisplay(options.tasks.length);
  let result: AssessmentResult | undefined;
  let final = '';
  try {
    for await (const event of new A2aClientFactory({ token: process.env['A2A_TOKEN'] }).peer(green).streamText(randomUUID(), JSON.stringify(request))) {
      if (event.kind === 'artifact' && event.name === 'Result') result = event.data[0] as AssessmentResult;
      if (event.kind === 'status') {
        const line = parseTaskProgress(event.text);
        if (line) display.update(line);
        final = event.text;
      }
      if (event.kind === 'message') final = event.text;
    }
  } finally {
    display.stop();
  }
  if (!result) throw new Error(`the green agent returned no Result: ${final}`);
  return { result, file: /results saved to (\S+)$/.exec(final)?.[1] ?? '(not saved)' };
}

async function main(): Promise<void> {
  const options = await parseOptions(process.argv.slice(2));
  // Only a green agent this runner starts runs the solver's commands here.
  const sandbox = options.green ? undefined : await checkSandbox();
  const runDir = process.env['LOG_RUN_DIR'] ?? join(ROOT, 'logs', runDirectoryName(new Date()));
  mkdirSync(runDir, { recursive: true });
  const { green, purple, launched } = await startAgents(options, runDir, sandbox);
  const stopAll = (): Promise<void[]> => Promise.all(launched.map(stopAgent));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    console.log(`assessing ${options.tasks.length} task(s), ${options.concurrency} at a time\n`);
    const { result, file } = await assess(options, green, purple);
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
