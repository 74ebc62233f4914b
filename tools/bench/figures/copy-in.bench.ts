import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { errorReportName, SHARED_DIR, SOURCE_TREE, WORKSPACE } from '@arvo-rca/common';
import { DockerEngine, DockerSandboxFactory, taskContainerSpec } from '@arvo-rca/arvo-docker';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { benchSandboxOptions } from '../rigs/bench-sandbox-options';
import type { BenchDisk, DiskName } from '../rigs/bench-disk';
import { elapsedMs, median, round } from '../report/bench-stats';
import { dockerodeExec, sleepingContainer } from '../probes/direct-exec';

export interface CopyInFigures {
  /** The real tree: a Debian source package, as `src-vul/<name>/`. */
  tree: string;
  /** Where the archive, the workspaces and the engine's data were. */
  disk: DiskName;
  files: number;
  megabytes: number;
  runs: number;
  /** Extracting the tree into a fresh workspace on the host, alone. */
  prepare_ms: number;
  /** Baseline, the sandbox's earlier way: the tree extracted on the host, then a container with it bind-mounted, started, `.git` removed, first command. */
  bind_ms: number;
  /** The sandbox as the green agent runs it: the container started while the host extracts, the tree copied in as it is written, `.git` removed, first command. */
  copy_in_ms: number;
  /** Prepare to first command, copy-in against bind mount. */
  copy_in_vs_bind: number;
  /** The engine's floor: the tree put into a running container by one bare archive call. */
  engine_copy_ms: number;
}

const RUNS = 5;
/** The file the judge reads on the host: the one libarchive's fix for CVE-2024-26256 changes. */
const JUDGED_FILE = 'archive_read_support_format_rar.c';
const REMOVE_GIT = 'find /src -name .git -prune -exec rm -rf {} +; true';

/**
 * Prepare to first command on a real-size tree (tools/bench/real-tree.sh), copy-in against a bind
 * mount, run by run in turn on the same image and engine, from the same archive on the host. The bind
 * mount is measured with plain dockerode on the same hardened container spec: it is the path the sandbox
 * took before. Copy-in is the sandbox's start with the tree streamed in as the host extracts it, as the
 * green agent starts a task. The archive and every workspace are on `disk`, the containers on its engine.
 */
export async function measureCopyIn(root: string, disk: BenchDisk, owner: string): Promise<CopyInFigures> {
  const { docker } = disk;
  const tree = execFileSync('bash', [join(root, 'tools', 'bench', 'real-tree.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const scratch = mkdtempSync(join(disk.tmpDir, 'arvo-rca-bench-copy-'));
  const archive = join(scratch, 'repo-vul.tar');
  execFileSync('tar', ['-C', join(tree, '..'), '--transform', `s,^${basename(tree)},${SOURCE_TREE}/${basename(tree)},`, '-cf', archive, basename(tree)]);
  const factory = new DockerSandboxFactory(DockerEngine.fromEnvironment({ ...process.env, ...disk.env }), benchSandboxOptions({ tmpDir: scratch }), owner);
  const times = { prepare: [] as number[], bind: [] as number[], copy: [] as number[], engine: [] as number[] };
  try {
    // One round untimed, as in real_task: a fresh engine's first container costs several times the next ones.
    for (let run = -1; run < RUNS; run++) {
      for (const way of run % 2 === 0 ? (['copy', 'bind'] as const) : (['bind', 'copy'] as const)) {
        const workspace = emptyWorkspace(scratch);
        const timed = run >= 0;
        if (way === 'copy') {
          const took = await firstCommandWithCopy(factory, workspace, archive);
          if (timed) times.copy.push(took);
        } else {
          const [prepare, total] = await firstCommandWithBind(docker, owner, workspace, archive);
          const engine = await bareArchiveCopy(docker, workspace);
          if (timed) {
            times.prepare.push(prepare);
            times.bind.push(total);
            times.engine.push(engine);
          }
        }
        rmSync(join(workspace, '..'), { recursive: true, force: true });
      }
    }
  } finally {
    await factory.stopAll();
    rmSync(scratch, { recursive: true, force: true });
  }
  const counted = execFileSync('sh', ['-c', `find "$0" -type f | wc -l; du -sm "$0" | cut -f1`, tree], { encoding: 'utf8' }).trim().split('\n').map(Number);
  const [prepare, bind, copy, engine] = [median(times.prepare), median(times.bind), median(times.copy), median(times.engine)];
  return {
    tree: `${basename(tree)} (Debian source)`,
    disk: disk.name,
    files: counted[0],
    megabytes: counted[1],
    runs: RUNS,
    prepare_ms: round(prepare),
    bind_ms: round(bind),
    copy_in_ms: round(copy),
    copy_in_vs_bind: round(copy / bind),
    engine_copy_ms: round(engine),
  };
}

/** The floor: a running container, and the workspace put in with one bare archive API call; the call alone is timed. */
export async function bareArchiveCopy(docker: Docker, workspace: string): Promise<number> {
  const container = await docker.createContainer({
    Image: sampleImageTag('1'),
    Entrypoint: ['sleep'],
    Cmd: ['600'],
    WorkingDir: WORKSPACE,
    HostConfig: { Init: true, NetworkMode: 'none' },
  });
  try {
    await container.start();
    const tar = spawn('tar', ['-C', workspace, '-c', '-f', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = process.hrtime.bigint();
    await container.putArchive(tar.stdout, { path: WORKSPACE });
    return elapsedMs(started);
  } finally {
    await container.remove({ force: true, v: true });
  }
}

/** A task folder's workspace before its tree: `shared/` and the error report. */
export function emptyWorkspace(scratch: string): string {
  const workspace = join(scratch, `bench_1-${randomUUID()}`, 'workspace');
  mkdirSync(join(workspace, SHARED_DIR), { recursive: true });
  writeFileSync(join(workspace, errorReportName('1')), 'ERROR: AddressSanitizer\n');
  return workspace;
}

/**
 * Milliseconds from the archive on the host to the first command's answer, the green agent's way: the
 * host's `tar` and the sandbox read the same stream, the sandbox starting meanwhile. As the green agent
 * does for a container, the host writes only what the judge reads: here the file of libarchive's fix for
 * CVE-2024-26256 (tools/samples/real-task.sh), with the folders on its way (the green agent makes them all).
 * The removal after it is not counted.
 */
async function firstCommandWithCopy(factory: DockerSandboxFactory, workspace: string, archive: string): Promise<number> {
  const started = process.hrtime.bigint();
  const source = createReadStream(archive);
  const tree = new PassThrough({ highWaterMark: 1024 * 1024 });
  const tar = spawn('tar', ['-C', workspace, '--no-same-owner', '-xf', '-', '--wildcards', '--no-anchored', JUDGED_FILE], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const extracted = new Promise<void>((resolve, reject) =>
    tar.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`)))),
  );
  // A tar that stopped early (its workspace gone with a failed start) makes the pipe fail; its exit code says why.
  tar.stdin.on('error', () => undefined);
  source.pipe(tar.stdin);
  source.pipe(tree);
  const sandbox = factory.create({
    task: 'bench:1',
    contextId: randomUUID(),
    image: sampleImageTag('1'),
    workspaceDir: workspace,
    pendingWorkspace: { ready: extracted, tree: { folder: SOURCE_TREE, tar: tree } },
  });
  try {
    await sandbox.start();
    const outcome = await sandbox.exec('true');
    if (outcome.kind !== 'ran' || outcome.timedOut !== undefined || outcome.returncode !== 0)
      throw new Error(`first command with copy-in failed: ${JSON.stringify(outcome)}`);
    return elapsedMs(started);
  } finally {
    await sandbox.stop();
  }
}

/** The host's extraction alone (`tar` reads a gzipped archive as such), and from the archive to the first command's answer with the tree bind-mounted. */
export async function firstCommandWithBind(docker: Docker, owner: string, workspace: string, archive: string): Promise<[number, number]> {
  const options = benchSandboxOptions();
  const spec = taskContainerSpec({
    name: `arvo_bench_${randomUUID().slice(0, 8)}`,
    image: sampleImageTag('1'),
    taskFolder: join(workspace, '..'),
    owner,
    task: 'bench:1',
    contextId: 'bench',
    options,
    storageLimit: false,
  });
  const started = process.hrtime.bigint();
  execFileSync('tar', ['-C', workspace, '--no-same-owner', '-xf', archive]);
  const prepared = elapsedMs(started);
  const container = await docker.createContainer({
    ...sleepingContainer(spec),
    HostConfig: { ...spec.HostConfig, Mounts: [{ Type: 'bind', Source: workspace, Target: WORKSPACE, ReadOnly: false }] },
  });
  try {
    await container.start();
    if ((await dockerodeExec(container, ['sh', '-c', REMOVE_GIT])) !== 0) throw new Error('removing .git failed');
    if ((await dockerodeExec(container, ['bash', '-lc', 'true'])) !== 0) throw new Error('first command with a bind mount failed');
    return [prepared, elapsedMs(started)];
  } finally {
    await container.remove({ force: true, v: true });
  }
}
