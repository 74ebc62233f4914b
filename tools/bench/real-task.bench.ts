import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { TASK_FINISHED } from '@arvo-rca/a2a-protocol';
import { sampleImageTag } from '@arvo-rca/sandbox';
import type { BenchDisk, DiskName } from './bench-disk';
import { BenchRig, expectSuccess } from './bench-rig';
import { bareArchiveCopy } from './copy-in.bench';
import { elapsedMs, median, round } from './bench-stats';

export interface RealTaskFigures {
  task: string;
  /** Where the trees, `tar`'s included, and the engine's data were. */
  disk: DiskName;
  archive_mb: number;
  runs: number;
  /** `tar xzf` of the task's archive into an empty folder: the floor of laying out the tree at all. */
  tar_ms: number;
  /** From `Task ID:` to the answer of the solver's first command: download cache, guarded extraction, ground truth, container start, copy-in. */
  prepare_to_first_command_ms: number;
  vs_tar: number;
  /** The tar's tree put into a running container with one bare archive API call: the engine's own floor for any copy-in. */
  engine_copy_ms: number;
  engine_copy_vs_tar: number;
}

const TASK_ID = 'libarchive-e8';
const RUNS = 5;

/**
 * Prepare to first command on a real tree (tools/samples/real-task.sh: Debian's libarchive with one of its
 * fixes taken out) through the green agent's whole task path, against `tar xzf` of the same archive;
 * runs interleaved, medians. Every tree, the green agent's and `tar`'s, is written on `disk`, by its engine.
 */
export async function measureRealTask(root: string, disk: BenchDisk): Promise<RealTaskFigures> {
  const { docker } = disk;
  const scratch = mkdtempSync(join(disk.tmpDir, 'arvo-rca-bench-real-'));
  const image = sampleImageTag(TASK_ID);
  try {
    const task = execFileSync('bash', [join(root, 'tools/samples/real-task.sh'), join(scratch, 'samples'), TASK_ID], { encoding: 'utf8', env: { ...process.env, ...disk.env }, stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    const archive = join(task, 'repo-vul.tar.gz');
    await docker.getImage(sampleImageTag('1')).tag({ repo: 'arvo-rca-sample', tag: `${TASK_ID}-vul` });
    const rig = await BenchRig.start(root, docker, { ...disk.env, SAMPLES_DIR: join(scratch, 'samples'), MASK_TASK_IDS: 'off' }, disk.tmpDir);
    const tar: number[] = [];
    const engineCopy: number[] = [];
    const firstCommand: number[] = [];
    try {
      // One round untimed: the first task fills the download cache and warms the page cache.
      for (let run = -1; run < RUNS; run += 1) {
        const times = [...(await untarAndCopy(docker, archive, scratch)), await toFirstCommand(rig)];
        if (run < 0) continue;
        tar.push(times[0]);
        engineCopy.push(times[1]);
        firstCommand.push(times[2]);
      }
    } finally {
      await rig.stop();
    }
    return {
      task: 'libarchive 3.6.2 (Debian source), CVE-2024-26256 fix taken out',
      disk: disk.name,
      archive_mb: round(statSync(archive).size / 1024 / 1024, 1),
      runs: RUNS,
      tar_ms: round(median(tar), 1),
      prepare_to_first_command_ms: round(median(firstCommand), 1),
      vs_tar: round(median(firstCommand) / median(tar)),
      engine_copy_ms: round(median(engineCopy), 1),
      engine_copy_vs_tar: round(median(engineCopy) / median(tar)),
    };
  } finally {
    await docker.getImage(image).remove({ noprune: true }).catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `tar xzf` of the archive, timed; then the tree it wrote into a fresh running container, the call alone timed. */
async function untarAndCopy(docker: Docker, archive: string, scratch: string): Promise<[number, number]> {
  const target = join(scratch, 'untar');
  mkdirSync(target);
  try {
    const started = process.hrtime.bigint();
    execFileSync('tar', ['-xzf', archive, '-C', target]);
    return [elapsedMs(started), await bareArchiveCopy(docker, target)];
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}

/** Sends the task and times until the answer to the solver's first command; then finishes it. */
async function toFirstCommand(rig: BenchRig): Promise<number> {
  const started = process.hrtime.bigint();
  let took = 0;
  rig.standIn.handler = async (session) => {
    expectSuccess(await session.send('execute: true'), 'true');
    took = elapsedMs(started);
    await session.send(TASK_FINISHED);
  };
  const run = await rig.runTask(`sample:${TASK_ID}`);
  if (run.outcome?.finishReason !== 'finished' || took === 0) throw new Error(`the real task did not run to its first command: ${JSON.stringify(run)}`);
  return took;
}
