import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { taskImage } from '@arvo-rca/common';
import { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import type { AssessmentResult } from '@arvo-rca/results';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { GreenProcess } from '../probes/green-process';

const SAMPLES = ['1', '2', '3', '4', '5'];
const FIRST_ID = 70_001;
const REPOSITORY = 'arvo-rca-bench-many';
const FD_SAMPLE_MS = 250;

/**
 * `count` ARVO tasks made of the bundled samples in turn: a data folder (ARVO_DATA_URL) with one copy of
 * a sample per id, and one tag per id on that sample's image (ARVO_IMAGE_TEMPLATE), so that every task
 * has its own id, as an assessment needs, and no image is built or pulled. The tags go with `remove`.
 */
export class ManyTasksData {
  private constructor(
    readonly dataDir: string,
    readonly ids: string[],
    private readonly docker: Docker,
  ) {}

  static async make(root: string, docker: Docker, count: number): Promise<ManyTasksData> {
    const dataDir = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-many-'));
    const ids = Array.from({ length: count }, (_, index) => String(FIRST_ID + index));
    const data = new ManyTasksData(dataDir, ids, docker);
    try {
      for (const [index, id] of ids.entries()) {
        const sample = SAMPLES[index % SAMPLES.length];
        cpSync(join(root, 'samples', sample), join(dataDir, id), { recursive: true });
        await docker.getImage(taskImage('sample', sample)).tag({ repo: REPOSITORY, tag: `${id}-vul` });
      }
      return data;
    } catch (error) {
      await data.remove();
      throw error;
    }
  }

  get taskIds(): string[] {
    return this.ids.map((id) => `arvo:${id}`);
  }

  /** The green agent's settings for these tasks. */
  get env(): NodeJS.ProcessEnv {
    return { ARVO_DATA_URL: this.dataDir, ARVO_IMAGE_TEMPLATE: `${REPOSITORY}:{id}-vul` };
  }

  /** Removes the tags (the samples' own images stay) and the data folder. */
  async remove(): Promise<void> {
    await Promise.allSettled(this.ids.map((id) => this.docker.getImage(`${REPOSITORY}:${id}-vul`).remove({ noprune: true })));
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * The commands of the purple agent's script: `commands` shell commands, reads of the workspace and, last,
 * the write of loc.json. The submission follows them.
 */
export function scriptCommands(commands: number): string[] {
  const reads = [
    'head -n 5 /workspace/*_error.txt',
    'ls -R /workspace/src-vul | head -n 40',
    'grep -rn "len" /workspace/src-vul | head -n 20',
    'wc -l /workspace/src-vul/*/src/*.c',
  ];
  const locJson = JSON.stringify({
    reasoning: 'scripted',
    locations: [{ file: 'src/main.c', function: 'main', line_start: 1, line_end: 20, description: 'a guess' }],
  });
  const looks = Array.from({ length: commands - 1 }, (_, index) => reads[index % reads.length]);
  return [...looks, `cat > /workspace/shared/loc.json <<'EOF'\n${locJson}\nEOF`];
}

/**
 * The purple agent's script: the commands above, then the submission; the model thinks `thinkMs` before
 * each reply, as a real model takes seconds per step.
 */
export function writeThinkingScript(file: string, commands: number, thinkMs: number): void {
  const step = (thought: string, command: string) => ({ content: `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``, delayMs: thinkMs });
  const all = scriptCommands(commands);
  const replies = all.map((command, index) => step(index === all.length - 1 ? 'write the answer.' : `look, step ${index + 1}.`, command));
  replies.push(step('submit.', 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'));
  writeFileSync(file, JSON.stringify(replies));
}

/** Open file handles of a process, as /proc counts them; 0 once it is gone. */
export function openHandles(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** The most file handles each of `pids` held while watched, sampled every 250 ms. */
export function watchHandles(pids: number[]): { stop(): number[] } {
  const peaks = pids.map(openHandles);
  const timer = setInterval(() => pids.forEach((pid, index) => (peaks[index] = Math.max(peaks[index], openHandles(pid)))), FD_SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      return peaks;
    },
  };
}

interface EngineEvent {
  timeNano?: number;
  Actor?: { Attributes?: Record<string, string> };
}

/**
 * The engine's own account of container starts from now until `stop`, of containers whose owner label
 * starts with `ownerPrefix`: their times in ms, sorted. Read as they happen, not asked for afterwards:
 * the engine keeps only its last few hundred events, and a burst's removals (or a run's commands) push
 * its starts out before a later look could see them.
 */
export async function watchStarts(docker: Docker, ownerPrefix: string): Promise<{ stop(): Promise<number[]> }> {
  const since = Date.now();
  const stream = (await docker.getEvents({
    since: Math.floor(since / 1000),
    filters: { type: ['container'], event: ['start'], label: [LABEL_OWNER] },
  })) as NodeJS.ReadableStream & { destroy(): void };
  const times: number[] = [];
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.filter((text) => text.trim())) {
      const event = JSON.parse(line) as EngineEvent;
      const ms = (event.timeNano ?? 0) / 1e6;
      if (ms >= since && event.Actor?.Attributes?.[LABEL_OWNER]?.startsWith(ownerPrefix)) times.push(ms);
    }
  });
  stream.on('error', () => undefined);
  return {
    // The engine sends an event a moment after it happened: what came by the end of the burst, and just after.
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 500));
      stream.destroy();
      return times.sort((a, b) => a - b);
    },
  };
}

/** Starts per second over a burst: (n − 1) over the span from the first to the last. */
export function startsPerSecond(times: readonly number[]): number {
  if (times.length < 2) return Number.NaN;
  return ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]);
}

/** Containers whose owner label starts with `ownerPrefix` (running or not). */
export async function containersOf(docker: Docker, ownerPrefix: string): Promise<Docker.ContainerInfo[]> {
  const all = await docker.listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
  return all.filter((info) => info.Labels[LABEL_OWNER]?.startsWith(ownerPrefix));
}

/** One assessment on the green agent of `taskIds`, all at once; its Result. */
export async function assess(green: GreenProcess, purpleUrl: string, taskIds: string[], concurrency: number): Promise<AssessmentResult> {
  const request = JSON.stringify({ participants: { purple_agent: purpleUrl }, config: { task_ids: taskIds, concurrency } });
  let state = 'unknown';
  let result: AssessmentResult | undefined;
  for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), request, { deadlineMs: 3_600_000 })) {
    if (event.kind === 'status' || event.kind === 'task') state = event.state;
    if (event.kind === 'artifact') result = event.data[0] as AssessmentResult;
  }
  if (state !== 'completed' || !result) throw new Error(`the assessment ended ${state}${result ? '' : ' with no Result'}:\n${green.logTail}`);
  return result;
}

export function countStatuses(result: AssessmentResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const metrics of Object.values(result.task_metrics)) counts[metrics.status] = (counts[metrics.status] ?? 0) + 1;
  return counts;
}

/**
 * With BENCH_HEAP_SNAPSHOTS=<folder>, heap snapshots of both agents there, the green agent's `<name>.heapsnapshot`
 * and the purple agent's `purple-<name>.heapsnapshot`: at rest and after the run, what a finished task leaves.
 */
export async function heapSnapshots(agents: { green: GreenProcess; purple: GreenProcess }, name: string): Promise<void> {
  const folder = process.env['BENCH_HEAP_SNAPSHOTS'];
  if (!folder) return;
  await agents.green.probe.heapSnapshot(join(folder, `${name}.heapsnapshot`));
  await agents.purple.probe.heapSnapshot(join(folder, `purple-${name}.heapsnapshot`));
}

/** Both agents as processes: the purple one on the thinking script, the green one on `data`'s tasks in the engine. */
export async function startAgents(
  root: string,
  scratch: string,
  data: ManyTasksData,
  run: { commands: number; thinkMs: number; taskDisk: string },
): Promise<{ green: GreenProcess; purple: GreenProcess }> {
  const script = join(scratch, 'model-script.json');
  writeThinkingScript(script, run.commands, run.thinkMs);
  mkdirSync(join(scratch, 'tasks'));
  const runDir = join(scratch, 'logs', 'log_bench');
  mkdirSync(runDir, { recursive: true });
  const shared = { LOG_DIR: join(scratch, 'logs'), LOG_RUN_DIR: runDir, LOG_LEVEL: 'info' };
  const purple = await GreenProcess.start(root, await freePort(), { ...shared, MODEL: 'scripted', MODEL_SCRIPT_FILE: script }, 'purple-agent');
  try {
    const green = await GreenProcess.start(root, await freePort(), {
      ...shared,
      ...data.env,
      SANDBOX: 'docker',
      PURPLE_AGENT_URL: purple.url,
      TMP_DIR: join(scratch, 'tasks'),
      CACHE_DIR: join(scratch, 'cache'),
      TASK_TIMEOUT_S: '1800',
      CONTAINER_DISK: run.taskDisk,
    });
    return { green, purple };
  } catch (error) {
    await purple.stop();
    throw error;
  }
}
