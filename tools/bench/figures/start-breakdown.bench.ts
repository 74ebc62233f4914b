import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { errorReportName, SHARED_DIR, WORKSPACE } from '@arvo-rca/common';
import { DockerEngine, DockerSandbox, DockerSandboxFactory, taskContainerSpec, type StartBreakdown, type StartPhase } from '@arvo-rca/arvo-docker';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type { SandboxOptions } from '@arvo-rca/sandbox';
import { benchSandboxOptions } from '../rigs/bench-sandbox-options';
import { elapsedMs, median, round } from '../report/bench-stats';
import { dockerodeExec, sleepingContainer } from '../probes/direct-exec';

export interface StartFigures {
  /** Tasks started at once in the burst. */
  tasks: number;
  /** Median of each phase of one start alone (ms), over `runs` starts. */
  single: StartBreakdown;
  runs: number;
  /** Median of each phase of the starts of one burst, at the default pacing. */
  burst: StartBreakdown;
  /** From the burst's first start to its last sandbox ready (ms), at the default pacing. */
  burst_ms: number;
  /** Where the default, adaptive pacing starts (one per CPU); it then follows the engine. */
  default_pacing: number;
  /** The burst's time at the default pacing (`adaptive`) and at each fixed pacing tried. */
  pacing_ms: Record<string, number>;
  best_pacing: string;
  /** The engine's floor: the same work done bare (create, start, workspace in, one command), alone and `tasks` at once. */
  engine_single_ms: number;
  engine_burst_ms: number;
  /** How many starts the engine does at once, in effect: tasks × single / burst. */
  engine_parallelism: number;
  /** Our burst at the default pacing against the engine's bare burst. */
  burst_vs_engine: number;
}

const TASKS = 16;
const RUNS = 5;
const PHASES: readonly StartPhase[] = ['image', 'queue', 'create', 'start', 'probe', 'tree', 'workspace', 'copy', 'git'];

/**
 * Where a task's start goes (image check, queue, create, start, probe, copy-in beside .git removal),
 * alone and in a burst of 16, how the burst depends on the start pacing, and the floor the engine sets:
 * the same hardened container created and started bare, alone and 16 at once.
 */
export async function measureStarts(root: string, docker: Docker, owner: string): Promise<StartFigures> {
  const scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-start-'));
  try {
    const workspaces = Array.from({ length: TASKS }, () => prepareWorkspace(root, scratch));
    const options = (pacing?: number) =>
      benchSandboxOptions({
        tmpDir: scratch,
        ...(pacing ? { startConcurrency: pacing, startPacing: 'fixed' as const } : {}),
      });
    const defaultPacing = options().startConcurrency;
    // Each factory on an engine paced as its options say.
    const factoryOf = (made: SandboxOptions): DockerSandboxFactory => new DockerSandboxFactory(DockerEngine.fromEnvironment(process.env, made), made, owner);
    const singles: StartBreakdown[] = [];
    for (let run = 0; run < RUNS; run++) singles.push(...(await burst(factoryOf(options()), workspaces.slice(0, 1))).breakdowns);
    const paced = await burst(factoryOf(options()), workspaces);
    const pacing: Record<string, number> = { adaptive: paced.ms };
    for (const tried of [1, 2, 4, 8, 16]) {
      pacing[tried] = (await burst(factoryOf(options(tried)), workspaces)).ms;
    }
    const engineSingle = median(await sequential(RUNS, () => bareStarts(docker, owner, workspaces.slice(0, 1))));
    const engineBurst = median(await sequential(3, () => bareStarts(docker, owner, workspaces)));
    const best = Object.entries(pacing).sort(([, a], [, b]) => a - b)[0][0];
    return {
      tasks: TASKS,
      single: medianBreakdown(singles),
      runs: RUNS,
      burst: medianBreakdown(paced.breakdowns),
      burst_ms: round(paced.ms),
      default_pacing: defaultPacing,
      pacing_ms: Object.fromEntries(Object.entries(pacing).map(([key, ms]) => [key, round(ms)])),
      best_pacing: best,
      engine_single_ms: round(engineSingle),
      engine_burst_ms: round(engineBurst),
      engine_parallelism: round((TASKS * engineSingle) / engineBurst),
      burst_vs_engine: round(paced.ms / engineBurst),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Starts one sandbox per workspace at once; how long until all were ready, and each one's breakdown. */
async function burst(factory: DockerSandboxFactory, workspaces: string[]): Promise<{ ms: number; breakdowns: StartBreakdown[] }> {
  const sandboxes = workspaces.map((workspaceDir) => factory.create({ task: 'bench:1', contextId: randomUUID(), image: sampleImageTag('1'), workspaceDir }));
  const started = process.hrtime.bigint();
  try {
    await Promise.all(sandboxes.map((sandbox) => sandbox.start()));
    const ms = elapsedMs(started);
    return { ms, breakdowns: sandboxes.flatMap((sandbox) => (sandbox instanceof DockerSandbox && sandbox.startBreakdown ? [sandbox.startBreakdown] : [])) };
  } finally {
    await factory.stopAll();
  }
}

/**
 * The floor: the same work done bare, all at once, with plain dockerode: create and start the hardened
 * container, put the workspace in with one archive call, run one command. No pacing, no session. Its time
 * ends once all are up; `thenInThem`, if given, then runs in the containers before their removal.
 */
export async function bareStarts(
  docker: Docker,
  owner: string,
  workspaces: readonly string[],
  thenInThem?: (containers: readonly Docker.Container[]) => Promise<void>,
): Promise<number> {
  const options = benchSandboxOptions();
  const containers: Docker.Container[] = [];
  const started = process.hrtime.bigint();
  try {
    await Promise.all(
      workspaces.map(async (workspace) => {
        const spec = taskContainerSpec({
          name: `arvo_bench_${randomUUID().slice(0, 8)}`,
          image: sampleImageTag('1'),
          taskFolder: '/nonexistent',
          owner,
          task: 'bench:1',
          contextId: 'bench',
          options,
          storageLimit: false,
        });
        const container = await docker.createContainer(sleepingContainer(spec));
        containers.push(container);
        await container.start();
        const tar = spawn('tar', ['-C', workspace, '-c', '-f', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
        await container.putArchive(tar.stdout, { path: WORKSPACE });
        if ((await dockerodeExec(container, ['true'])) !== 0) throw new Error('the first command of a bare start failed');
      }),
    );
    const ms = elapsedMs(started);
    await thenInThem?.(containers);
    return ms;
  } finally {
    await Promise.all(containers.map((container) => container.remove({ force: true, v: true }).catch(() => undefined)));
  }
}

async function sequential(times: number, measure: () => Promise<number>): Promise<number[]> {
  const results: number[] = [];
  for (let index = 0; index < times; index++) results.push(await measure());
  return results;
}

function medianBreakdown(breakdowns: readonly StartBreakdown[]): StartBreakdown {
  const of = (key: keyof StartBreakdown): number => round(median(breakdowns.map((breakdown) => breakdown[key])));
  return { ...(Object.fromEntries(PHASES.map((phase) => [phase, of(phase)])) as Record<StartPhase, number>), total: of('total') };
}

/** A workspace as the green agent lays one out: sample 1's tree, its crash report, an empty shared folder. */
export function prepareWorkspace(root: string, scratch: string): string {
  const workspace = join(scratch, `bench_1-${randomUUID()}`, 'workspace');
  mkdirSync(join(workspace, SHARED_DIR), { recursive: true });
  writeFileSync(join(workspace, errorReportName('1')), 'ERROR: AddressSanitizer\n');
  execFileSync('tar', ['-C', workspace, '--no-same-owner', '-xzf', join(root, 'samples', '1', 'repo-vul.tar.gz')]);
  return workspace;
}
