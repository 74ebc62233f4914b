import { randomUUID } from 'node:crypto';
import { chmodSync, readdirSync } from 'node:fs';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import type { AssessmentResult } from '@arvo-rca/results';
import { Scratch, startAgent, type AgentProcess } from '../processes/agent-processes';
import { startHostileSolver, type HostileSolver, type HostileTask } from './hostile-solver';
import { TaskContainers } from '../engines/task-containers';

// Generous: the machine may be loaded; a request ends with its task, long before this.
const REQUEST_DEADLINE_MS = 900_000;

/** The green agents of one suite, each with its own TMP_DIR, and the solver they hand their tasks to. */
export class Arena {
  readonly clients = new A2aClientFactory();
  readonly containers = new TaskContainers();
  readonly greens: AgentProcess[] = [];
  private readonly scratches: Scratch[] = [];
  /** Tasks handed over and what their requesters will have heard, until `settle` ends them. */
  private running: { task: HostileTask; heard: Promise<unknown> }[] = [];
  solver!: HostileSolver;

  async open(): Promise<void> {
    this.solver = await startHostileSolver();
  }

  async startGreen(env: NodeJS.ProcessEnv): Promise<{ green: AgentProcess; scratch: Scratch }> {
    const scratch = new Scratch();
    // As traversable as the default TMP_DIR (/tmp/rcabench), which the agent makes with mkdir: no
    // folder of the test's own may be what keeps another user out.
    chmodSync(scratch.dir, 0o755);
    this.scratches.push(scratch);
    const green = await startAgent('green-agent', { ...scratch.env(), PURPLE_AGENT_URL: this.solver.agent.url, TASK_TIMEOUT_S: '1800', ...env });
    this.greens.push(green);
    return { green, scratch };
  }

  /** Asks `green` for one task; resolves with its hostile task once handed over, and what the requester heard. */
  async attack(green: AgentProcess, task = 'sample:1'): Promise<{ task: HostileTask; heard: Promise<PeerEvent[]> }> {
    this.solver.greenUrl = green.url;
    const next = this.solver.nextTask();
    const heard = collect(this.clients.peer(green.url).streamText(randomUUID(), `Task ID: ${task}`, { deadlineMs: REQUEST_DEADLINE_MS }));
    const attack = { task: await next, heard };
    this.running.push(attack);
    return attack;
  }

  /** Asks `green` for an assessment of one task with this solver; the Result once the assessment is over. */
  async assess(green: AgentProcess, task = 'sample:1'): Promise<{ task: HostileTask; result: Promise<AssessmentResult> }> {
    this.solver.greenUrl = green.url;
    const next = this.solver.nextTask();
    const request = { participants: { purple_agent: this.solver.agent.url }, config: { task_ids: [task], concurrency: 1 } };
    const events = collect(this.clients.peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: REQUEST_DEADLINE_MS }));
    const result = events.then((seen) => {
      const artifact = seen.find((event) => event.kind === 'artifact' && event.name === 'Result');
      if (artifact?.kind !== 'artifact') throw new Error(`no Result artifact; last events: ${JSON.stringify(seen.slice(-3))}\n${green.log.slice(-3000)}`);
      return artifact.data[0] as AssessmentResult;
    });
    const attack = { task: await next, result };
    this.running.push({ task: attack.task, heard: result.catch(() => undefined) });
    return attack;
  }

  /** Ends the solver's side of every task still open (a failed test's too) and waits until the green agent is done with them. */
  async settle(): Promise<void> {
    for (const { task } of this.running) task.end();
    await Promise.all(this.running.map(({ heard }) => heard));
    this.running = [];
  }

  /** Stops every green agent, then says what is left of them: containers with their owner id, task folders. */
  async stopAndList(): Promise<{ containers: string[]; taskFolders: string[] }> {
    await Promise.all(this.greens.map((green) => green.stop()));
    const containers = [];
    for (const green of this.greens) containers.push(...(await this.containers.ofProcess(green.child.pid ?? 0)).map((info) => info.Names.join(',')));
    return { containers, taskFolders: this.scratches.flatMap((scratch) => readdirSync(scratch.tasks)) };
  }

  async close(): Promise<void> {
    await Promise.all(this.greens.map((green) => green.stop('SIGKILL')));
    await this.containers.removeOfProcesses(this.greens.map((green) => green.child.pid ?? 0));
    await this.solver?.close();
    for (const scratch of this.scratches) scratch.remove();
  }
}

/** Everything a stream yields until it ends or breaks. */
export async function collect(events: AsyncIterable<PeerEvent>): Promise<PeerEvent[]> {
  const seen: PeerEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch {
    // How the stream ended is not what the tests look at.
  }
  return seen;
}
