// `tsx --tsconfig tools/tsconfig.json tools/bench/probes/disk-limit.ts`: how far past a task's disk limit a burst of writes
// gets before the task is stopped (docs/bench.md, "Disk limit"). A sandbox on sample 1's image with a 2g limit
// runs one burst; the task is stopped as the green agent stops it, at the watchdog's breach. Prints JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { ProcessTable } from '@arvo-rca/common';
import { DockerEngine, DockerSandboxFactory } from '@arvo-rca/arvo-docker';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { currentOwner, formatOwnerId } from '@arvo-rca/sandbox';
import { benchSandboxOptions } from '../rigs/bench-sandbox-options';
import { makeTaskWorkspace } from '@arvo-rca/sandbox/testing';

const LIMIT = '2g';
const BURSTS = {
  fallocate_5g: 'fallocate -l 5G /tmp/burst',
  dd_5g: 'dd if=/dev/zero of=/tmp/burst bs=4M count=1280 status=none',
} as const;

interface BurstFigures {
  burst: string;
  /** From the command's start to the watchdog's breach. */
  breach_ms: number | null;
  /** What the engine counted at the breach, and past the limit. */
  written_at_breach: string | null;
  /** From the command's start to the container's removal. */
  stopped_ms: number | null;
}

async function measureBurst(root: string, owner: string, burst: keyof typeof BURSTS): Promise<BurstFigures> {
  const options = benchSandboxOptions({ tmpDir: root, commandTimeoutS: 60 });
  const factory = new DockerSandboxFactory(DockerEngine.fromEnvironment(), options, owner);
  let began = 0;
  let breach: { ms: number; detail: string } | undefined;
  let stopping: Promise<number> | undefined;
  const sandbox = factory.create({
    task: 'sample:1',
    contextId: `disk-limit-${burst}`,
    image: sampleImageTag('1'),
    workspaceDir: await makeTaskWorkspace(root),
    onDiskLimit: (detail) => {
      breach = { ms: performance.now() - began, detail };
      stopping = sandbox.stop().then(() => performance.now() - began);
    },
  });
  try {
    await sandbox.start();
    began = performance.now();
    await sandbox.exec(BURSTS[burst]).catch(() => undefined);
    // The breach may come after the burst ended: wait for it, a few looks at most.
    const deadline = performance.now() + 15_000;
    while (!breach && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const stopped = await stopping;
    return {
      burst,
      breach_ms: breach ? Math.round(breach.ms) : null,
      written_at_breach: breach?.detail.replace(/^the task's container /, '') ?? null,
      stopped_ms: stopped === undefined ? null : Math.round(stopped),
    };
  } finally {
    await factory.stopAll();
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync('/tmp/arvo-rca-disk-limit-');
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  try {
    const figures: BurstFigures[] = [];
    for (const burst of Object.keys(BURSTS) as (keyof typeof BURSTS)[]) figures.push(await measureBurst(root, owner, burst));
    console.log(JSON.stringify({ limit: LIMIT, figures }, null, 2));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
