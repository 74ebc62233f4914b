import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { AgentProcess, Scratch, startAgent } from './support/processes/agent-processes';
import { startBusySolver, type BusySolver, type BusyTask } from './support/stand-ins/busy-solver';
import { LABEL_OWNER, LABEL_TASK_FOLDER } from '@arvo-rca/arvo-docker';
import { describeWithBubblewrap } from '@arvo-rca/sandbox/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import { TaskContainers } from './support/engines/task-containers';

/** A task of the green agent caught mid-command: its container and its folder under TMP_DIR. */
interface BusyGreenTask {
  task: BusyTask;
  containerId: string;
  taskDir: string;
  /** What the requester of the task heard, until its stream ended or broke. */
  heard: Promise<PeerEvent[]>;
}

const SHUTDOWN_BUDGET_MS = 10_000;

describeWithDocker('green agent process lifecycle: kill, restart, SIGTERM, mid-task', () => {
  const clients = new A2aClientFactory();
  const containers = new TaskContainers();
  const greens: AgentProcess[] = [];
  const scratches: Scratch[] = [];
  let scratch: Scratch;
  let solver: BusySolver;

  beforeAll(async () => {
    solver = await startBusySolver();
  });

  // Each test gets its own TMP_DIR, so that one test's leftovers never pass for another's.
  beforeEach(() => {
    scratch = new Scratch();
    scratches.push(scratch);
  });

  afterAll(async () => {
    await Promise.all(greens.map((green) => green.stop('SIGKILL')));
    await containers.removeOfProcesses(greens.map((green) => green.child.pid ?? 0));
    await solver?.close();
    for (const each of scratches) each.remove();
  });

  async function startGreen(sandbox: 'docker' | 'local' = 'docker'): Promise<AgentProcess> {
    const green = await startAgent('green-agent', { ...scratch.env(), SANDBOX: sandbox, PURPLE_AGENT_URL: solver.agent.url, TASK_TIMEOUT_S: '300' });
    greens.push(green);
    solver.greenUrl = green.url;
    return green;
  }

  /** Asks `green` for sample:1 and returns once the solver's `sleep 30` runs in the task's container. */
  async function busyTask(green: AgentProcess): Promise<BusyGreenTask> {
    const busy = solver.nextBusy();
    const heard = collect(clients.peer(green.url).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 120_000 }));
    const task = await busy;
    const [container] = await containers.ofContext(task.contextId);
    await containers.waitForProcess(container.Id, /sleep 30$/);
    return { task, containerId: container.Id, taskDir: taskDirOf(container.Labels[LABEL_TASK_FOLDER] ?? ''), heard };
  }

  function taskDirs(): string[] {
    return readdirSync(scratch.tasks);
  }

  function taskDirOf(taskFolder: string): string {
    const [name] = taskFolder.slice(scratch.tasks.length + 1).split('/');
    return name;
  }

  it('leaves the container and workspace of a SIGKILLed green agent to its next start, whose reaper removes them', async () => {
    const green = await startGreen();
    const { task, containerId, taskDir, heard } = await busyTask(green);
    const [running] = await containers.ofContext(task.contextId);
    expect(running.Labels[LABEL_OWNER]).toMatch(new RegExp(`:${green.child.pid}:\\d+:[0-9a-f]+$`));
    expect(running.State).toBe('running');
    expect(taskDirs()).toEqual([taskDir]);
    expect(taskDir).toMatch(/^sample_1-[0-9a-f-]{36}$/);

    await green.stop('SIGKILL');
    await heard;

    // Killed outright, the process cleaned up nothing: the orphans are there, the task's command still runs.
    expect((await containers.ofContext(task.contextId)).map((info) => info.Id)).toEqual([containerId]);
    await containers.waitForProcess(containerId, /sleep 30$/, 1000);
    expect(taskDirs()).toEqual([taskDir]);

    const restarted = await startGreen();

    // The reaper runs before the card is served: by now both orphans are gone.
    expect(await containers.ofContext(task.contextId)).toEqual([]);
    expect(taskDirs()).toEqual([]);
    expect(restarted.exited).toBe(false);
    await restarted.stop();
  });

  // SANDBOX=local runs only where bubblewrap does (CI installs it).
  describeWithBubblewrap('on the local sandbox', () => {
    it('leaves the workspace of a SIGKILLed green agent on the local sandbox, which has no container, to its next start', async () => {
      const green = await startGreen('local');
      const busy = solver.nextBusy();
      const heard = collect(clients.peer(green.url).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 120_000 }));
      await busy;
      const [taskDir] = taskDirs();
      expect(taskDir).toMatch(/^sample_1-[0-9a-f-]{36}$/);

      await green.stop('SIGKILL');
      await heard;
      expect(taskDirs()).toEqual([taskDir]);

      const restarted = await startGreen('local');

      // Fresh as it is, the folder names a dead owner: the reaper removed it before the card was served.
      expect(taskDirs()).toEqual([]);
      await restarted.stop();
    });
  });

  it('removes its containers and workspaces and exits within 10 s of SIGTERM mid-task', async () => {
    const green = await startGreen();
    const pid = green.child.pid ?? 0;
    const { task, heard } = await busyTask(green);
    expect(await containers.ofProcess(pid)).toHaveLength(1);
    expect(taskDirs()).toHaveLength(1);

    const signalled = Date.now();
    green.child.kill('SIGTERM');
    const exited = await Promise.race([once(green.child, 'exit').then(() => true), sleep(SHUTDOWN_BUDGET_MS).then(() => false)]);
    const tookMs = Date.now() - signalled;

    expect({ exited, within: tookMs <= SHUTDOWN_BUDGET_MS, log: exited ? '' : green.log }).toEqual({ exited: true, within: true, log: '' });
    expect(await containers.ofProcess(pid)).toEqual([]);
    expect(await containers.ofContext(task.contextId)).toEqual([]);
    expect(taskDirs()).toEqual([]);
    // The requester heard how its task ended before the server went away.
    expect(outcomeOf(await heard)).toMatchObject({
      finish_reason: 'shutdown',
      run: { commands: 1 },
      metrics: { status: 'interrupted', detail: 'the green agent is shutting down', file_acc: 0 },
    });
  });

  it('finishes a task whose solver dies mid-command, removes its container and workspace, and keeps serving', async () => {
    const green = await startGreen();
    const { task, heard } = await busyTask(green);
    // Text on the running task's context that is neither a command nor the end is refused as a task of its own; the task runs on.
    expect(rejectionOf(await collect(clients.peer(green.url).streamText(task.contextId, 'hello?', { deadlineMs: 10_000 })))).toMatch(
      /^Command rejected: send one command as "execute: <command>"/,
    );
    expect(await containers.ofContext(task.contextId)).toHaveLength(1);

    solver.die();
    const events = await heard;

    expect(outcomeOf(events)).toMatchObject({ finish_reason: 'solver-failed', metrics: { status: 'no_submission' } });
    expect(await containers.ofContext(task.contextId)).toEqual([]);
    expect(taskDirs()).toEqual([]);
    // A command on the ended task's context is refused as a rejected task, never answered with a bare message.
    expect(rejectionOf(await collect(clients.peer(green.url).streamText(task.contextId, 'execute: id', { deadlineMs: 10_000 })))).toMatch(
      /^Command rejected: no running task/,
    );
    await green.stop();
  });
});

/** Everything a stream yields until it ends or breaks (a killed peer breaks it). */
async function collect(events: AsyncIterable<PeerEvent>): Promise<PeerEvent[]> {
  const seen: PeerEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch {
    // The end of the stream is what the tests look at, not how it ended.
  }
  return seen;
}

/** The task outcome in the `Result` artifact of a plain task request, if one came. */
function outcomeOf(events: PeerEvent[]): unknown {
  const artifact = events.find((event) => event.kind === 'artifact') as { data: unknown[] } | undefined;
  return artifact?.data[0];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
