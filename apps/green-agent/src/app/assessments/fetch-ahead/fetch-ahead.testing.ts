import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, parseTaskProgressLines, type PeerEvent, type TaskProgressLine } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { pushGeneratedImage, removeImage, TestRegistry, ThrottledProxy } from '@arvo-rca/arvo-docker/testing';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { startGreenApp, type GreenApp } from '../../stage/green-app.testing';
import { startSolverStandIn, type SolverScript, type SolverStandIn } from '../../stage/solver-stand-in.testing';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', '..', 'samples');
export const MIB = 1024 ** 2;
// On the engine already, as the OSS-Fuzz base is for ARVO: each task image adds one layer of random data.
const BASE = 'debian:bookworm-slim';

/**
 * ARVO tasks served from a real registry behind a throttle: each id's files are a copy of sample 1's (a local
 * mirror, ARVO_DATA_URL), and its image (ARVO_IMAGE_TEMPLATE) is `debian` plus a layer of random data, pulled
 * through the throttle. Images pulled from it are removed from the engine by `clearImages` and `stop`.
 */
export class ThrottledArvo {
  private constructor(
    readonly registry: TestRegistry,
    readonly proxy: ThrottledProxy,
    /** The repository path of the images: `<run>/arvo`. */
    readonly repository: string,
    readonly dataDir: string,
    private readonly ids: readonly string[],
  ) {}

  /** Pushes one image per id, `megabytes` each (a number, or one per id). */
  static async start(ids: readonly string[], megabytes: number | readonly number[], bytesPerSecond: number): Promise<ThrottledArvo> {
    const registry = await TestRegistry.start();
    const proxy = await ThrottledProxy.start(registry.address, bytesPerSecond);
    const repository = `ahead-${process.pid}-${randomUUID().slice(0, 6)}/arvo`;
    const dataDir = mkdtempSync(join(tmpdir(), 'arvo-mirror-'));
    const arvo = new ThrottledArvo(registry, proxy, repository, dataDir, ids);
    for (const id of ids) cpSync(join(SAMPLES_DIR, '1'), join(dataDir, id), { recursive: true });
    await Promise.all(
      ids.map((id, index) => pushGeneratedImage(registry.address, arvo.tag(id), typeof megabytes === 'number' ? megabytes : megabytes[index], BASE)),
    );
    return arvo;
  }

  /** `<repository>:<id>-vul`, as the proxy counts its pulls. */
  tag(id: string): string {
    return `${this.repository}:${id}-vul`;
  }

  image(id: string): string {
    return `${this.proxy.address}/${this.tag(id)}`;
  }

  /** The green agent's settings that take its ARVO tasks from here. */
  get env(): Record<string, string> {
    return { ARVO_DATA_URL: this.dataDir, ARVO_IMAGE_TEMPLATE: `${this.proxy.address}/${this.repository}:{id}-vul` };
  }

  async onEngine(id: string): Promise<boolean> {
    return new Docker()
      .getImage(this.image(id))
      .inspect()
      .then(
        () => true,
        () => false,
      );
  }

  async clearImages(): Promise<void> {
    for (const id of this.ids) await removeImage(new Docker(), this.image(id));
  }

  async stop(): Promise<void> {
    await this.clearImages();
    await this.proxy.close();
    await this.registry.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A green app and its solver stand-in over a scratch folder of their own; `close` ends them and removes it. */
export interface AheadScene {
  green: GreenApp;
  solver: SolverStandIn;
  scratch: string;
  /** Shuts the green app down (its shutdown hooks run), once. */
  closeGreen(): Promise<void>;
  close(): Promise<void>;
}

export async function startAheadScene(script: SolverScript, env: Record<string, string>): Promise<AheadScene> {
  const saved = { ...process.env };
  const scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-ahead-'));
  mkdirSync(join(scratch, 'tasks'));
  const solver = await startSolverStandIn(script);
  const green = await startGreenApp(scratch, solver, env);
  let closing: Promise<void> | undefined;
  const closeGreen = (): Promise<void> => (closing ??= green.app.close());
  return {
    green,
    solver,
    scratch,
    closeGreen,
    async close() {
      await closeGreen();
      await solver.agent.close();
      rmSync(scratch, { recursive: true, force: true });
      process.env = saved;
    },
  };
}

/** What an assessment streamed: each task line with the time it came, and the stream's own events. */
export interface AssessmentRun {
  lines: { at: number; line: TaskProgressLine }[];
  events: PeerEvent[];
  seconds: number;
}

/** Runs an assessment of `taskIds` on the scene's green agent to its end; `onEvent` sees the run so far after each event. */
export async function runAssessment(scene: AheadScene, taskIds: string[], concurrency: number, onEvent?: (run: AssessmentRun) => void): Promise<AssessmentRun> {
  const request = JSON.stringify({ participants: { purple_agent: scene.solver.agent.url }, config: { task_ids: taskIds, concurrency } });
  const run: AssessmentRun = { lines: [], events: [], seconds: 0 };
  const started = Date.now();
  for await (const event of new A2aClientFactory().peer(scene.green.url).streamText(randomUUID(), request, { deadlineMs: 300_000 })) {
    run.events.push(event);
    const at = Date.now();
    for (const line of event.kind === 'status' ? parseTaskProgressLines(event.data) : []) run.lines.push({ at, line });
    onEvent?.(run);
  }
  run.seconds = (Date.now() - started) / 1000;
  return run;
}

/** When the first line of `task` that `matches` came; Infinity when none did. */
export function firstAt(run: AssessmentRun, task: string, matches: (line: TaskProgressLine) => boolean): number {
  return run.lines.find(({ line }) => line.task === task && matches(line))?.at ?? Infinity;
}

/** Where that line came among the run's lines (Infinity if it never came): lines sent together in one update share a time, not a place. */
export function placeOf(run: AssessmentRun, task: string, matches: (line: TaskProgressLine) => boolean): number {
  const place = run.lines.findIndex(({ line }) => line.task === task && matches(line));
  return place === -1 ? Infinity : place;
}

/** The owner label of the scene's green agent. */
export function ownerOf(scene: AheadScene): string {
  return scene.green.app.get<string>(SANDBOX_OWNER, { strict: false });
}

/** What the green agent left behind: its containers on the engine (by its owner label) and its task folders. */
export async function leftBehind(scene: AheadScene, owner = ownerOf(scene)): Promise<{ containers: string[]; folders: string[] }> {
  const containers = await new Docker().listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } });
  return { containers: containers.map((info) => info.Names[0] ?? info.Id), folders: readdirSync(join(scene.scratch, 'tasks')) };
}
