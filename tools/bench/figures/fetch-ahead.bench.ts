import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { A2aClientFactory, formatExecute, parseTaskProgressLines, TASK_FINISHED } from '@arvo-rca/a2a-protocol';
import { DockerEngine } from '@arvo-rca/arvo-docker';
import { pushGeneratedImage, removeImage, TestRegistry, ThrottledProxy } from '@arvo-rca/arvo-docker/testing';
import { BenchRig, expectSuccess } from '../rigs/bench-rig';
import { median, round } from '../report/bench-stats';

export interface FetchAheadFigures {
  tasks: number;
  concurrency: number;
  /** FETCH_AHEAD and PREPARE_AHEAD of the run (both the concurrency, their default). */
  window: number;
  /** One image's pull alone through the throttle, measured; and its solving, scripted. */
  pull_s: number;
  solve_s: number;
  /** The floors: the pulls alone, one after another (tasks × one pull), and the solving alone (tasks × solving / concurrency). */
  pulls_alone_s: number;
  solving_alone_s: number;
  /** The run with fetching and preparing ahead, from the request to the Result. */
  wall_s: number;
  /** 1.15 × the larger floor, plus one pull. */
  target_s: number;
  /** The original's way: each task pulled, then solved, one task after another (FETCH_AHEAD=0, concurrency 1). */
  original_way_s: number;
  /** The same run as `wall_s`, fetching ahead without preparing ahead (PREPARE_AHEAD=0). */
  unprepared_wall_s: number;
  /** The images the run pulled, at most at once on the engine (its own account), against IMAGE_DISK_BUDGET and one image. */
  peak_image_bytes: number;
  budget_bytes: number;
  image_bytes: number;
  /** From a task's turn (its `started` line) to the answer of its first command, median over the tasks after the first `concurrency`. */
  turn_to_first_command_ms: number;
  unprepared_turn_to_first_command_ms: number;
  prepared_vs_unprepared: number;
}

// Six tasks, two at once: each image adds 25 MiB of random data to the base on the engine, pulled at 20 MiB/s
// (about 1.3 s), and each task solves for 8 s. On one link the first two pulls cannot hide: the run's own floor
// is two pulls and the solving alone, which the target's allowance of one pull and 15 % covers at these values.
const TASKS = 6;
const CONCURRENCY = 2;
const LAYER_MIB = 25;
const BYTES_PER_SECOND = 20 * 1024 ** 2;
const SOLVE_S = 8;
const BASE = 'debian:bookworm-slim';
const SAMPLE = join('samples', '1');

interface AssessmentRun {
  wallS: number;
  /** Per task id: when its `started` line came, and when its first command was answered (epoch ms). */
  turns: Map<string, number>;
  firstCommands: Map<string, number>;
  peakBytes: number;
}

/**
 * A run of ARVO tasks whose images come from a real registry behind a throttle (generated images, each its
 * own layer of random data) and whose solver is scripted (a quick first command, then `sleep`), three ways:
 * fetching and preparing ahead, with an image budget of as many images as run and wait at once; the same
 * without preparing ahead; and the original's way, one task after another. Images pulled are removed between runs.
 */
export async function measureFetchAhead(root: string, docker: Docker): Promise<FetchAheadFigures> {
  const registry = await TestRegistry.start();
  const proxy = await ThrottledProxy.start(registry.address, BYTES_PER_SECOND);
  const dataDir = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-ahead-'));
  const repository = `bench-ahead-${randomUUID().slice(0, 8)}/arvo`;
  const ids = Array.from({ length: TASKS + 1 }, (_, index) => String(9000 + index));
  const image = (id: string): string => `${proxy.address}/${repository}:${id}-vul`;
  const clear = async (): Promise<void> => {
    for (const id of ids) await removeImage(docker, image(id));
  };
  try {
    for (const id of ids) cpSync(join(root, SAMPLE), join(dataDir, id), { recursive: true });
    await Promise.all(ids.map((id) => pushGeneratedImage(registry.address, `${repository}:${id}-vul`, LAYER_MIB, BASE)));
    const [calibration, ...taskIds] = ids;
    // One pull alone: what each task's image costs, and what one image counts for in the budget.
    const engine = DockerEngine.fromEnvironment();
    const pullStarted = performance.now();
    await engine.pullImage(image(calibration), new AbortController().signal, () => undefined);
    const pullS = (performance.now() - pullStarted) / 1000;
    const imageBytes = await engine.imageSize(image(calibration));
    await clear();
    const budgetBytes = 2 * CONCURRENCY * imageBytes;
    const env = {
      ARVO_DATA_URL: dataDir,
      ARVO_IMAGE_TEMPLATE: `${proxy.address}/${repository}:{id}-vul`,
      IMAGE_DISK_BUDGET: String(budgetBytes),
      MASK_TASK_IDS: 'off',
    };
    const tasks = taskIds.map((id) => `arvo:${id}`);
    const pulled = taskIds.map(image);
    const ahead = await runAssessment(root, docker, env, tasks, CONCURRENCY, pulled);
    await clear();
    const unprepared = await runAssessment(root, docker, { ...env, PREPARE_AHEAD: '0' }, tasks, CONCURRENCY, pulled);
    await clear();
    const original = await runAssessment(root, docker, { ...env, FETCH_AHEAD: '0' }, tasks, 1, pulled);
    const pullsAlone = TASKS * pullS;
    const solvingAlone = (TASKS * SOLVE_S) / CONCURRENCY;
    const target = 1.15 * Math.max(pullsAlone, solvingAlone) + pullS;
    const turnToFirst = (run: AssessmentRun): number =>
      median(tasks.slice(CONCURRENCY).map((task) => (run.firstCommands.get(task) ?? NaN) - (run.turns.get(task) ?? NaN)));
    const prepared = turnToFirst(ahead);
    const without = turnToFirst(unprepared);
    return {
      tasks: TASKS,
      concurrency: CONCURRENCY,
      window: CONCURRENCY,
      pull_s: round(pullS, 2),
      solve_s: SOLVE_S,
      pulls_alone_s: round(pullsAlone, 1),
      solving_alone_s: round(solvingAlone, 1),
      wall_s: round(ahead.wallS, 1),
      target_s: round(target, 1),
      original_way_s: round(original.wallS, 1),
      unprepared_wall_s: round(unprepared.wallS, 1),
      peak_image_bytes: ahead.peakBytes,
      budget_bytes: budgetBytes,
      image_bytes: imageBytes,
      turn_to_first_command_ms: round(prepared, 1),
      unprepared_turn_to_first_command_ms: round(without, 1),
      prepared_vs_unprepared: round(prepared / without, 3),
    };
  } finally {
    await clear();
    await proxy.close();
    await registry.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One assessment of `tasks` on a fresh green agent: its wall time, each task's turn and first answer, and the peak of `images` on the engine. */
async function runAssessment(
  root: string,
  docker: Docker,
  env: NodeJS.ProcessEnv,
  tasks: string[],
  concurrency: number,
  images: string[],
): Promise<AssessmentRun> {
  const rig = await BenchRig.start(root, docker, env);
  const run: AssessmentRun = { wallS: 0, turns: new Map(), firstCommands: new Map(), peakBytes: 0 };
  const watching = watchImageDisk(images, (bytes) => (run.peakBytes = Math.max(run.peakBytes, bytes)));
  try {
    rig.standIn.handler = async (session) => {
      const task = tasks.find((id) => session.description.includes(id)) ?? '?';
      expectSuccess(await session.send(formatExecute('true')), 'true');
      run.firstCommands.set(task, Date.now());
      expectSuccess(await session.send(formatExecute(`sleep ${SOLVE_S}`)), `sleep ${SOLVE_S}`);
      await session.send(TASK_FINISHED);
    };
    const request = JSON.stringify({ participants: { purple_agent: rig.standIn.url }, config: { task_ids: tasks, concurrency } });
    const started = performance.now();
    let state = 'unknown';
    for await (const event of new A2aClientFactory().peer(rig.green.url).streamText(randomUUID(), request, { deadlineMs: 900_000 })) {
      if (event.kind === 'status' || event.kind === 'task') state = event.state;
      for (const line of event.kind === 'status' ? parseTaskProgressLines(event.data) : []) if (line.kind === 'started') run.turns.set(line.task, Date.now());
    }
    run.wallS = (performance.now() - started) / 1000;
    if (state !== 'completed') throw new Error(`the assessment ended ${state}:\n${rig.green.logTail}`);
    if (rig.standIn.failures.length > 0) throw rig.standIn.failures[0];
    return run;
  } finally {
    await watching.stop();
    await rig.stop();
  }
}

/** Polls the engine's own account of `images` (what they take, each counted whole) until stopped. */
function watchImageDisk(images: string[], seen: (bytes: number) => void): { stop(): Promise<void> } {
  const engine = DockerEngine.fromEnvironment();
  let stopped = false;
  const polling = (async () => {
    while (!stopped) {
      const { images: all } = await engine.imageDiskUsage();
      seen(all.filter((info) => info.tags.some((tag) => images.includes(tag))).reduce((sum, info) => sum + info.bytes, 0));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await polling;
    },
  };
}
