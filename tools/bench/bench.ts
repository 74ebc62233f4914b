// `npm run bench`: measures the figures of docs/bench.md against the real engine and the built green
// agent, prints a table of figure, value, target and ratio, and writes logs/bench/latest.json. It
// reports; it does not fail on a missed target.
// Usage: tsx --tsconfig tools/tsconfig.json tools/bench/bench.ts [exec_rtt|concurrency|memory|purple_step_overhead|cli_step_overhead|a2a_large_message|resume_scan|viewer_render|real_task|copy_in|starts|remote_engine|fetch_ahead|many_tasks ...]
// many_tasks runs 128 tasks at once; MANY_TASKS=32 runs it on fewer.
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type Docker from 'dockerode';
import { createDockerClient, DockerEngine } from '@arvo-rca/arvo-docker';
import { currentOwner, formatOwnerId } from '@arvo-rca/sandbox';
import { ProcessTable, taskImage } from '@arvo-rca/common';
import { BenchDisk } from './rigs/bench-disk';
import { BenchRig } from './rigs/bench-rig';
import { chromiumMissing } from './rigs/viewer-rig';
import { formatTable, tableRows, writeReport, type BenchReport } from './report/bench-report';
import { measureCliStep } from './figures/cli-step.bench';
import { measureConcurrency } from './figures/concurrency.bench';
import { measureCopyIn } from './figures/copy-in.bench';
import { measureExecRtt } from './figures/exec-rtt.bench';
import { measureFetchAhead } from './figures/fetch-ahead.bench';
import { measureLargeMessage } from './figures/large-message.bench';
import { measureManyTasks } from './figures/many-tasks.bench';
import { measureMemory } from './figures/memory.bench';
import { measurePurpleStep } from './figures/purple-step.bench';
import { measureRemoteEngine } from './figures/remote-engine.bench';
import { measureRealTask } from './figures/real-task.bench';
import { measureResumeScan } from './figures/resume-scan.bench';
import { measureStarts } from './figures/start-breakdown.bench';
import { measureViewerRender } from './figures/viewer-render.bench';

const ROOT = resolve(__dirname, '..', '..');
const FIGURES = [
  'exec_rtt',
  'concurrency',
  'memory',
  'purple_step_overhead',
  'cli_step_overhead',
  'a2a_large_message',
  'resume_scan',
  'viewer_render',
  'real_task',
  'copy_in',
  'starts',
  'remote_engine',
  'fetch_ahead',
  'many_tasks',
] as const;
type Figure = (typeof FIGURES)[number];

async function main(argv: string[]): Promise<void> {
  const unknown = argv.filter((name) => !FIGURES.includes(name as Figure));
  if (unknown.length > 0) throw new Error(`unknown figure(s) ${unknown.join(', ')}; choose from ${FIGURES.join(', ')}`);
  const chosen = new Set<Figure>(argv.length > 0 ? (argv as Figure[]) : FIGURES);
  const docker = createDockerClient();
  await checkPrerequisites(docker, chosen);
  // The owner label of the containers the figures make themselves.
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  const report: BenchReport = {
    at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: { cpus: cpus().length, node: process.version, docker: (await docker.version()).Version, load_1m: Number(loadavg()[0].toFixed(2)) },
    leftover_containers: [],
  };
  // In-process and container-free: first, while the machine is quietest.
  if (chosen.has('purple_step_overhead')) report.purple_step_overhead = await timed('purple step overhead', () => measurePurpleStep(ROOT));
  if (chosen.has('cli_step_overhead'))
    report.cli_step_overhead = await timed("the CLI agents' adapter per step, against our agent's and the MCP SDK's floor, and their starts", () =>
      measureCliStep(ROOT),
    );
  if (chosen.has('a2a_large_message')) report.a2a_large_message = await timed('a 3 MiB message through A2A and as plain JSON', () => measureLargeMessage());
  if (chosen.has('resume_scan')) report.resume_scan = await timed("resume's scan of a 1,000-task record and reading its files bare", () => measureResumeScan());
  if (chosen.has('viewer_render'))
    report.viewer_render = await timed('the viewer: a 500-task comparison of 2 runs in Chromium, and a static table of the same cells', () =>
      measureViewerRender(ROOT),
    );
  if (chosen.has('exec_rtt') || chosen.has('memory') || chosen.has('concurrency')) {
    const rig = await timed('starting the green agent', () => BenchRig.start(ROOT, docker));
    try {
      if (chosen.has('exec_rtt')) report.exec_rtt = await timed('exec round trips', () => measureExecRtt(rig));
      if (chosen.has('memory')) report.memory = await timed('memory of 1 GiB of output', () => measureMemory(rig));
      if (chosen.has('concurrency')) report.concurrency = await timed('concurrency', () => measureConcurrency(rig));
    } finally {
      report.leftover_containers = await rig.stop();
    }
  }
  if (chosen.has('starts')) report.starts = await timed('start breakdown and pacing', () => measureStarts(ROOT, docker, owner));
  if (chosen.has('real_task') || chosen.has('copy_in')) {
    const disk = await timed('the disk for the real trees', () => BenchDisk.open(ROOT, docker, [taskImage('sample', '1')]));
    console.warn(`bench: the real trees and their engine on the ${disk.name} (${disk.reason})`);
    try {
      if (chosen.has('real_task'))
        report.real_task = await timed("prepare to first command on two real trees, against tar and the original's way", () =>
          measureRealTask(ROOT, disk, owner),
        );
      if (chosen.has('copy_in')) report.copy_in = await timed('copy-in on a real tree', () => measureCopyIn(ROOT, disk, owner));
    } finally {
      await disk.close();
    }
  }
  if (chosen.has('remote_engine'))
    report.remote_engine = await timed('exec round trips on a TLS engine against the local socket', () => measureRemoteEngine(ROOT, docker, owner));
  if (chosen.has('fetch_ahead'))
    report.fetch_ahead = await timed('a run of tasks with throttled pulls: fetching ahead, without preparing ahead, and the original way', () =>
      measureFetchAhead(ROOT, docker),
    );
  if (chosen.has('many_tasks'))
    report.many_tasks = await timed('many tasks at once through both agents as processes, against the think-bound ideal and the engine start floor', () =>
      measureManyTasks(ROOT, docker, owner),
    );
  console.log(`\n${formatTable(tableRows(report))}\n`);
  console.log(`machine: ${report.machine.cpus} cpus, node ${report.machine.node}, docker ${report.machine.docker}, load ${report.machine.load_1m}`);
  if (report.leftover_containers.length > 0) console.warn(`the green agent left containers behind (removed now): ${report.leftover_containers.join(', ')}`);
  const written = await writeReport(join(ROOT, 'logs', 'bench'), report, chosen.size === FIGURES.length);
  console.log(`wrote ${written.join(' and ')}`);
}

// What the chosen figures need, asked before the first of them runs: not minutes into a run.
async function checkPrerequisites(docker: Docker, chosen: ReadonlySet<Figure>): Promise<void> {
  const browser = chosen.has('viewer_render') || chosen.has('many_tasks') ? chromiumMissing() : undefined;
  if (browser) throw new Error(browser);
  if (!(await DockerEngine.fromEnvironment().answers())) throw new Error('no Docker engine answers (tools/docker-engine.sh starts one)');
  const image = taskImage('sample', '1');
  const present = await docker
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (!present) throw new Error(`image ${image} is missing: run "npm run images"`);
}

async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  process.stderr.write(`bench: ${what} ...`);
  const result = await work();
  process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`\nbench: ${error.stack ?? error.message}`);
  process.exit(1);
});
