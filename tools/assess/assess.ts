// The runner: `npm start` assesses every bundled sample; `npm run assess -- --tasks <ids> [--green URL[,URL...]]
// [--purple URL] [--concurrency N]` assesses the given tasks (or a task list: `--tasks @<list>`, `--tasks-file
// FILE`, with `--num-tasks N [--seed S]` drawing N of them), and `--resume <record folder> [--retry-failed]`
// goes on with a run record. Without URLs it starts both agents from their builds, sharing one run log
// directory (for a resume, the record's); with URLs it drives agents that already run. Several green URLs
// spread the list over them (green i runs shard i of n), and their Results are combined into one.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { A2aClientFactory, type TaskConfigBody } from '@arvo-rca/a2a-protocol';
import { createDockerClient, DockerEngine } from '@arvo-rca/arvo-docker';
import { listSampleIds } from '../samples/sample-images';
import type { AssessmentResult } from '@arvo-rca/results';
import { declaresRunRecord, recordResult, RecordLayout, type RecordScan } from '@arvo-rca/run-record';
import { TaskLists } from '@arvo-rca/task-lists';
import { runDirectoryName } from '@arvo-rca/task-logging';
import { freePort, launchAgent, ROOT, stopAgent, waitForCard, type LaunchedAgent } from './agent-launcher';
import { AssessmentFailed, followAssessment, GreenFailure } from './assessment-stream';
import { combineShardReports, saveCombinedResult, shardRequests, type ShardReport, type ShardRequest } from './green-shards';
import { LiveDisplay } from './live-display';
import { describeResumePlan, planResume, resumeCommand, resumeRequest, type ResumePlan } from './resume-plan';
import { formatResultsTable } from './results-table';
import { parseRunnerOptions, type RunnerOptions } from './runner-options';
import { pickSandbox, sandboxChoice, type SandboxPick } from './sandbox-check';
import { greenSetting } from './green-settings';
import { ensureTaskImages } from './image-check';
import { imagesOfTasks, imagesToMakeBeforehand } from './task-images';
import { RecordKeeper } from './record-keeper';
import { verdictOf, type RunPlace } from './run-verdict';
import { chooseRunTasks } from './task-choice';

/** The green agent's SAMPLES_DIR, from the repository it is started in: the bundled tasks and their images' recipe. */
const SAMPLES_DIR = resolve(ROOT, greenSetting('SAMPLES_DIR', process.env, ROOT) ?? 'samples');

/** The green agent's TASK_LISTS_DIR, from the same repository: the named task lists, read here as it reads them. */
const TASK_LISTS_DIR = resolve(ROOT, greenSetting('TASK_LISTS_DIR', process.env, ROOT) ?? 'task-lists');

async function bundledSamples(): Promise<string[]> {
  return (await listSampleIds(SAMPLES_DIR)).map((id) => `sample:${id}`);
}

/** Said on the terminal before any agent starts: the sandbox, and a plain warning when nothing is isolated. */
async function checkSandbox(): Promise<SandboxPick> {
  const pick = await pickSandbox(sandboxChoice(process.env, ROOT));
  console.log(pick.line);
  if (pick.warning) console.warn(pick.warning);
  return pick;
}

async function startAgents(
  options: RunnerOptions,
  runDir: string,
  sandbox?: SandboxPick,
): Promise<{ greens: string[]; purple: string; launched: LaunchedAgent[]; sendsRecord: (green: string) => boolean }> {
  const launched: LaunchedAgent[] = [];
  const greens = options.greens.length > 0 ? options.greens : [`http://127.0.0.1:${await freePort()}/`];
  const purple = options.purple ?? `http://127.0.0.1:${await freePort()}/`;
  // The purple agent is told no green URL: the green agent drives each task's conversation (the reply dialect), as on AgentBeats.
  const shared = { LOG_RUN_DIR: runDir, PURPLE_AGENT_URL: purple };
  if (sandbox) launched.push(launchAgent('green-agent', Number(new URL(greens[0]).port), { ...shared, SANDBOX: sandbox.sandbox }, runDir));
  if (!options.purple) launched.push(launchAgent('purple-agent', Number(new URL(purple).port), shared, runDir));
  const byUrl = new Map(launched.map((agent) => [agent.url, agent.child]));
  const cards = await Promise.all([...greens, purple].map((url) => waitForCard(url, byUrl.get(url))));
  greens.forEach((green, index) => console.log(`green agent:  ${green} (${cards[index]['name']})`));
  console.log(`purple agent: ${purple} (${cards[greens.length]['name']})`);
  // A green agent that sends its record's files is asked for them; an older one keeps its record on its side.
  const sending = new Set(greens.filter((_, index) => declaresRunRecord(cards[index])));
  return { greens, purple, launched, sendsRecord: (green) => sending.has(green) };
}

/** How the green agents' parts run: the run directory they are kept in, and whether each green agent was asked for its record's files. */
interface GreenRuns {
  runDir: string;
  sendsRecord: (green: string) => boolean;
  /** Filled as the parts begin: what the runner keeps of each green agent's record. */
  keepers: Map<string, RecordKeeper>;
}

/**
 * Each green agent's part at once, feeding one display, its record kept in the run directory as it comes;
 * the green agents that failed are named once all have ended.
 */
async function runOnGreens(requests: ShardRequest[], total: number | undefined, runs: GreenRuns): Promise<ShardReport[]> {
  const display = new LiveDisplay(total);
  const clients = new A2aClientFactory({ token: process.env['A2A_TOKEN'] });
  const follow = async (green: string, request: ShardRequest['request']): Promise<ShardReport> => {
    const suffix = requests.length > 1 ? ` (${green})` : '';
    const keeper = new RecordKeeper(runs.runDir, green, runs.sendsRecord(green), (line) => display.note(line), suffix);
    runs.keepers.set(green, keeper);
    const report = await followAssessment(green, clients.peer(green).streamText(randomUUID(), JSON.stringify(request)), {
      recorded: (recordDir) => keeper.named(recordDir),
      progress: (line) => display.update(line),
      kept: (data) => keeper.take(data),
    });
    return { ...report, file: await keeper.keepResult(report.result, report.file) };
  };
  try {
    const settled = await Promise.allSettled(requests.map(({ green, request }) => follow(green, request)));
    const failures = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [asGreenFailure(outcome.reason)] : []));
    if (failures.length > 0) throw new AssessmentFailed(failures);
    return settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  } finally {
    display.stop();
  }
}

function asGreenFailure(reason: unknown): GreenFailure {
  return reason instanceof GreenFailure ? reason : new GreenFailure('GREEN_STOPPED', '(unknown)', reason instanceof Error ? reason.message : String(reason));
}

/** On the engine the green agent will use, before it starts: the images of the tasks known here (a resume's elsewhere are its own). */
async function ensureImages(work: Work): Promise<void> {
  const tasks = work.kind === 'assess' ? work.tasks : (work.plan.local?.toRun ?? []);
  const images = imagesOfTasks(tasks, greenSetting('ARVO_IMAGE_TEMPLATE', process.env, ROOT));
  await ensureTaskImages(imagesToMakeBeforehand(images, greenSetting('IMAGE_DISK_BUDGET', process.env, ROOT)), {
    docker: createDockerClient(),
    engine: DockerEngine.fromEnvironment(),
    samplesDir: SAMPLES_DIR,
    root: ROOT,
    say: (line) => console.log(line),
  });
}

/** What this run does: assess tasks (asked for by `config`), or resume a record as planned here. */
type Work = { kind: 'assess'; tasks: string[]; config: TaskConfigBody; concurrency: number } | { kind: 'resume'; plan: ResumePlan; concurrency?: number };

async function workOf(options: RunnerOptions): Promise<Work> {
  if (options.kind === 'assess') {
    // The user's own list file is read here, as the user, and its ids are sent: a green agent reads no path of theirs.
    const { tasks, config, how } = await chooseRunTasks(options.tasks, new TaskLists(TASK_LISTS_DIR, { fileFolders: 'anywhere' }));
    if (how) console.log(`tasks:   ${how}`);
    return { kind: 'assess', tasks, config, concurrency: options.concurrency };
  }
  const plan = await planResume(options.folder, options.retryFailed, options.greens.length > 0);
  describeResumePlan(plan).forEach((line) => console.log(line));
  // The record's concurrency, when the record is here; else the green agent takes it from its copy.
  return { kind: 'resume', plan, concurrency: options.concurrency ?? plan.local?.scan.assessment.concurrency };
}

/** The requests to send, with the number of tasks they run (when known here) and a line that says so. */
function requestsFor(
  work: Work,
  greens: string[],
  purple: string,
  sendsRecord: (green: string) => boolean,
): { requests: ShardRequest[]; total?: number; what: string } {
  if (work.kind === 'assess') {
    const spread = greens.length > 1 ? ` on each of ${greens.length} green agents` : '';
    return {
      requests: shardRequests(greens, purple, work.config, work.concurrency, sendsRecord),
      total: work.tasks.length,
      what: `assessing ${work.tasks.length} task(s), ${work.concurrency} at a time${spread}`,
    };
  }
  const { plan, concurrency } = work;
  const count = plan.local ? `${plan.local.toRun.length} task(s)` : 'the tasks the green agent finds to run';
  const pace = concurrency === undefined ? '' : `, ${concurrency} at a time`;
  return {
    requests: [{ green: greens[0], request: resumeRequest(purple, plan, concurrency, sendsRecord(greens[0])) }],
    total: plan.local?.toRun.length,
    what: `resuming record ${plan.recordId}: ${count}${pace}`,
  };
}

/** The Result to show and the file that holds it: one green's own file, or the combined Result saved here. */
async function resultOf(reports: ShardReport[], runDir: string): Promise<{ result: AssessmentResult; file: string }> {
  if (reports.length === 1) return { result: reports[0].result, file: reports[0].file ?? '(not saved)' };
  for (const { green, result, file } of reports) console.log(`shard ${result.shard.index} of ${result.shard.count} (${green}): ${file ?? '(not saved)'}`);
  const result = combineShardReports(reports);
  return { result, file: await saveCombinedResult(result, runDir) };
}

function printResult(result: AssessmentResult, file: string, runDir: string, place?: RunPlace): void {
  console.log(`\n${formatResultsTable(result)}\n\n${result.n_scored} of ${result.n_tasks} scored in ${result.time_used}s`);
  console.log(`results: ${file}\nlogs:    ${runDir}`);
  if (!place) return;
  // The shell's verdict: a wrong answer is a result; a task without one, or no task at all, is not.
  const { exitCode, lines } = verdictOf(result, place);
  lines.forEach((line) => console.error(line));
  process.exitCode = exitCode;
}

/** `--dry-run`: the tasks the assessment would run, one a line, and nothing run. */
function printTasks(tasks: string[]): void {
  console.log(`would assess ${tasks.length} task(s) (--dry-run: nothing was run):`);
  tasks.forEach((task) => console.log(task));
}

/** A record with nothing left to run: its Result from its tasks' files, and no agent started. */
function printRecorded(scan: RecordScan): void {
  console.log('nothing to run: every task of the record has a result (--retry-failed runs failed and interrupted ones again)');
  printResult(recordResult(scan.assessment, scan.done), new RecordLayout(scan.folder).resultFile, scan.runDir);
}

async function main(): Promise<void> {
  const options = await parseRunnerOptions(process.argv.slice(2), bundledSamples);
  const work = await workOf(options);
  if (options.kind === 'assess' && options.dryRun && work.kind === 'assess') return printTasks(work.tasks);
  const record = work.kind === 'resume' ? work.plan.local : undefined;
  if (record && record.toRun.length === 0 && options.greens.length === 0) return printRecorded(record.scan);
  // Only a green agent this runner starts runs the solver's commands here.
  const sandbox = options.greens.length > 0 ? undefined : await checkSandbox();
  // A container per task needs its image on the engine; a first run on a new machine makes them here.
  if (sandbox?.sandbox === 'docker') await ensureImages(work);
  // A resume's agents write into the record's run directory: its logs, trajectories and record stay together.
  const runDir = record?.scan.runDir ?? process.env['LOG_RUN_DIR'] ?? join(ROOT, 'logs', runDirectoryName(new Date()));
  mkdirSync(runDir, { recursive: true });
  const { greens, purple, launched, sendsRecord } = await startAgents(options, runDir, sandbox);
  const stopAll = (): Promise<void[]> => Promise.all(launched.map(stopAgent));
  // A green agent the user gave is named in the resume command; one this runner started is started again by it.
  const given = (green: string): string | undefined => (options.greens.includes(green) ? green : undefined);
  const keepers = new Map<string, RecordKeeper>();
  // The folder a resume goes on with: the record kept here, else the green agent's.
  const folders = (): [string, string][] => [...keepers].flatMap(([green, keeper]) => (keeper.folder === undefined ? [] : [[green, keeper.folder]]));
  process.once('SIGINT', () => {
    void stopAll().then(() => {
      for (const [green, folder] of folders()) console.error(`resume with: ${resumeCommand(folder, given(green))}`);
      process.exit(130);
    });
  });
  try {
    const { requests, total, what } = requestsFor(work, greens, purple, sendsRecord);
    console.log(`${what}\n`);
    const { result, file } = await resultOf(await runOnGreens(requests, total, { runDir, sendsRecord, keepers }), runDir);
    const recorded = folders();
    const retry = recorded.length === 1 ? `${resumeCommand(recorded[0][1], given(recorded[0][0]))} --retry-failed` : undefined;
    printResult(result, file, runDir, { engine: sandbox?.sandbox === 'docker' ? DockerEngine.fromEnvironment().address : undefined, greens, retry });
  } catch (error) {
    if (!(error instanceof AssessmentFailed)) throw error;
    // The record keeps what finished: the way on is a resume of it.
    console.error(`assess: ${error.message}`);
    for (const { green, recordDir } of error.resumable) console.error(`resume with: ${resumeCommand(keepers.get(green)?.folder ?? recordDir, given(green))}`);
    process.exitCode = 1;
  } finally {
    await stopAll();
  }
}

main().catch((error: Error) => {
  console.error(`assess: ${error.message}`);
  process.exit(1);
});
