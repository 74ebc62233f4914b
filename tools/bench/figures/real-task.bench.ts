import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { TASK_FINISHED } from '@arvo-rca/a2a-protocol';
import type { BenchDisk, DiskName } from '../rigs/bench-disk';
import { BenchRig, expectSuccess } from '../rigs/bench-rig';
import { bareArchiveCopy, emptyWorkspace, firstCommandWithBind } from './copy-in.bench';
import { elapsedMs, median, round } from '../report/bench-stats';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';

export interface RealTaskFigures {
  /** Where the trees, `tar`'s included, and the engine's data were. */
  disk: DiskName;
  runs: number;
  trees: RealTreeFigures[];
}

/** One real task's figures, each a median over the runs. */
export interface RealTreeFigures {
  task: string;
  archive_mb: number;
  /** `tar xzf` of the task's archive into a workspace: the floor of laying out the tree at all, and the target's reference. */
  tar_ms: number;
  /** From `Task ID:` to the answer of the solver's first command: download cache, guarded extraction, ground truth, container start, copy-in. */
  prepare_to_first_command_ms: number;
  vs_tar: number;
  /**
   * The original's way, to the same first command: that `tar xzf`, then the hardened container with the
   * workspace bind-mounted, started, `.git` removed. It needs a disk shared with the engine, which a
   * remote engine or AgentBeats' gateway does not give.
   */
  original_way_ms: number;
  original_way_vs_tar: number;
  /** Our prepare to first command against the original's way. */
  vs_original_way: number;
  /** `tar`'s tree put into a running container with one bare archive API call: the engine's own floor for any copy-in, its start left out. */
  engine_copy_ms: number;
  engine_copy_vs_tar: number;
  /** Full garbage collections in the green agent over one task (to its first command and its end), and their main-thread time. */
  green_full_gcs: number;
  green_full_gc_ms: number;
}

/** The real tasks of tools/samples/real-task.sh: a small tree and a large one. */
const TASKS = [
  { id: 'libarchive-e8', task: "libarchive 3.6.2 (Debian source), CVE-2024-26256's fix taken out" },
  { id: 'systemd-udev', task: "systemd 252.39 (upstream release), without Debian's fix for CVE-2026-40225" },
] as const;
const RUNS = 5;

/**
 * Prepare to first command on real trees (tools/samples/real-task.sh: Debian source packages with one of
 * their fixes taken out) through the green agent's whole task path, against `tar xzf` of the same
 * archive and against the original's way (that `tar`, then a bind-mounted container); runs interleaved,
 * medians. Every tree is written on `disk`, and every container runs on its engine.
 */
export async function measureRealTask(root: string, disk: BenchDisk, owner: string): Promise<RealTaskFigures> {
  const { docker } = disk;
  const scratch = mkdtempSync(join(disk.tmpDir, 'arvo-rca-bench-real-'));
  const samples = join(scratch, 'samples');
  try {
    const archives = TASKS.map(({ id }) => {
      const task = execFileSync('bash', [join(root, 'tools/samples/real-task.sh'), samples, id], {
        encoding: 'utf8',
        env: { ...process.env, ...disk.env },
        stdio: ['ignore', 'pipe', 'inherit'],
      }).trim();
      return join(task, 'repo-vul.tar.gz');
    });
    for (const { id } of TASKS) await docker.getImage(sampleImageTag('1')).tag({ repo: 'arvo-rca-sample', tag: `${id}-vul` });
    const rig = await BenchRig.start(root, docker, { ...disk.env, SAMPLES_DIR: samples, MASK_TASK_IDS: 'off' }, disk.tmpDir);
    const times = TASKS.map(() => ({
      tar: [] as number[],
      original: [] as number[],
      engine: [] as number[],
      ours: [] as number[],
      gcs: [] as number[],
      gcMs: [] as number[],
    }));
    try {
      // One round untimed: the first task fills the download cache and warms the page cache.
      for (let run = -1; run < RUNS; run += 1) {
        for (const [i, { id }] of TASKS.entries()) {
          const [tar, original, engine] = await theOriginalWay(docker, owner, archives[i], scratch);
          await rig.green.probe.mark('real-task');
          const ours = await toFirstCommand(rig, id);
          const { gc } = await rig.green.probe.report('real-task');
          if (run < 0) continue;
          times[i].gcs.push(gc.major);
          times[i].gcMs.push(gc.majorMs);
          times[i].tar.push(tar);
          times[i].original.push(original);
          times[i].engine.push(engine);
          times[i].ours.push(ours);
        }
      }
    } finally {
      await rig.stop();
    }
    const trees = TASKS.map(({ task }, i): RealTreeFigures => {
      const [tar, original, engine, ours] = [times[i].tar, times[i].original, times[i].engine, times[i].ours].map(median);
      return {
        task,
        archive_mb: round(statSync(archives[i]).size / 1024 / 1024, 1),
        tar_ms: round(tar, 1),
        prepare_to_first_command_ms: round(ours, 1),
        vs_tar: round(ours / tar),
        original_way_ms: round(original, 1),
        original_way_vs_tar: round(original / tar),
        vs_original_way: round(ours / original),
        engine_copy_ms: round(engine, 1),
        engine_copy_vs_tar: round(engine / tar),
        green_full_gcs: median(times[i].gcs),
        green_full_gc_ms: round(median(times[i].gcMs), 1),
      };
    });
    return { disk: disk.name, runs: RUNS, trees };
  } finally {
    for (const { id } of TASKS)
      await docker
        .getImage(sampleImageTag(id))
        .remove({ noprune: true })
        .catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `tar xzf` into a workspace and the original's way to the first command, timed; then that tree into a fresh running container, the call alone timed. */
async function theOriginalWay(docker: Docker, owner: string, archive: string, scratch: string): Promise<[number, number, number]> {
  const workspace = emptyWorkspace(scratch);
  try {
    const [tar, original] = await firstCommandWithBind(docker, owner, workspace, archive);
    return [tar, original, await bareArchiveCopy(docker, workspace)];
  } finally {
    rmSync(join(workspace, '..'), { recursive: true, force: true });
  }
}

/** Sends the task and times until the answer to the solver's first command; then finishes it. */
async function toFirstCommand(rig: BenchRig, id: string): Promise<number> {
  const started = process.hrtime.bigint();
  let took = 0;
  rig.standIn.handler = async (session) => {
    expectSuccess(await session.send('execute: true'), 'true');
    took = elapsedMs(started);
    await session.send(TASK_FINISHED);
  };
  const run = await rig.runTask(`sample:${id}`);
  if (run.outcome?.finish_reason !== 'finished' || took === 0) throw new Error(`the real task ${id} did not run to its first command: ${JSON.stringify(run)}`);
  return took;
}
