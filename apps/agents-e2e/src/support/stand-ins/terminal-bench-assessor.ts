import {
  A2aClientFactory,
  clampExecTimeout,
  formatShellMessage,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type A2aPeer,
  type PeerEvent,
  type ShellMessage,
} from '@arvo-rca/a2a-protocol';
import { A2aV03Client, mergeV03Parts, type V03Exchange } from '../a2a/a2a-v03-client';
import type { TaskShell } from '../engines/task-shell';

export interface TerminalBenchAssessorOptions {
  /** The cap on a command's time the assessor allows. */
  commandCapS?: number;
  /**
   * The A2A version it speaks: 0.3 as the original's Python a2a-sdk 0.3 client does (see A2aV03Client), or 1.0 through
   * this project's client, which reads the card as a 1.0 client and takes its 1.0 interface when there is one.
   */
  a2a?: '0.3' | '1.0';
}

/**
 * A stand-in for AgentBeats' terminal-bench assessor (RDI-Foundation/terminal-bench-green), driving one solver
 * session as its `Agent._run_agent_session` (src/agent.py) does through its `Messenger` (src/messenger.py): a real
 * A2A client on loopback, every rule below taken from the line of the original named beside it. The original's
 * client is the Python a2a-sdk 0.3 one: `{ a2a: '0.3' }` speaks as it does.
 */
export class TerminalBenchAssessor {
  /** Every message each way, as the original's transcript keeps them (agent.py: `transcript.append(...)`). */
  readonly transcript: { to: 'agent' | 'green'; text: string }[] = [];
  /** The solver's A2A tasks, one per turn. */
  readonly turns: { taskId: string; state: string; artifacts: string[] }[] = [];
  /** In 0.3, every HTTP exchange with the solver, in order. */
  readonly exchanges: V03Exchange[] = [];
  private readonly solver: A2aPeer;
  private readonly commandCapS: number;
  private readonly a2a: '0.3' | '1.0';

  constructor(
    private readonly solverUrl: string,
    /** The task's environment (the original's Docker compose environment, `environment.exec`). */
    private readonly shell: TaskShell,
    options: TerminalBenchAssessorOptions = {},
  ) {
    this.solver = new A2aClientFactory().peer(solverUrl);
    this.commandCapS = options.commandCapS ?? 300;
    this.a2a = options.a2a ?? '1.0';
  }

  /** One session, from the task envelope to the solver's `final`; the output of that final. Throws as the original raises. */
  async runSession(instruction: string, deadlineMs = 120_000): Promise<unknown> {
    // agent.py `_run_agent_session`: outbound = {"kind": "task", "protocol": "terminal-bench-shell-v1", "instruction": instruction}; new_conversation = True
    let outbound: ShellMessage = { kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction };
    let contextId: string | undefined;
    for (;;) {
      const response = await this.talkToAgent(formatShellMessage(outbound), contextId, deadlineMs);
      contextId = response.contextId;
      const message = decode(response.text);
      // agent.py: `if kind == "final": return ...`; `if kind != "exec_request": raise RuntimeError(f"Unexpected agent payload ...")`
      if (message.kind === 'final') return message.output;
      if (message.kind !== 'exec_request') throw new Error(`Unexpected agent payload: ${response.text}`);
      // agent.py: `if not isinstance(command, str) or not command.strip(): raise RuntimeError(f"Invalid exec_request ...")`
      if (!message.command.trim()) throw new Error(`Invalid exec_request: ${response.text}`);
      // agent.py: `command_timeout = payload.get("timeout", 30)` ... `max(1, min(command_timeout, 300))`
      // agent.py: `result = await environment.exec(command, timeout_sec=command_timeout)`, answered as
      // {"kind": "exec_result", "exit_code": result.return_code, "stdout": result.stdout or "", "stderr": result.stderr or ""}
      outbound = await this.shell.exec(message.command, clampExecTimeout(message.timeout, this.commandCapS));
    }
  }

  /**
   * messenger.py `Messenger.talk_to_agent` and `send_message`: a streaming call (`streaming=True`) carrying no
   * context id on a new conversation (`context_id=None if new_conversation else self._context_ids.get(url)`),
   * never a task id (`create_message(text=message, context_id=context_id)`); the reply is the status message of
   * the last task seen, then every artifact (`outputs["response"] += merge_parts(...)` for `task.status.message`
   * and for each of `task.artifacts`); anything but `completed` raises (`if outputs.get("status", "completed") !=
   * "completed": raise RuntimeError`); the context id for the next call is the task's (`task.context_id`).
   */
  private async talkToAgent(text: string, contextId: string | undefined, deadlineMs: number): Promise<{ text: string; contextId: string }> {
    this.transcript.push({ to: 'agent', text });
    const answer = this.a2a === '0.3' ? await this.sendV03(text, contextId) : await this.sendV1(text, contextId, deadlineMs);
    if (answer.turn) this.turns.push(answer.turn);
    if (answer.state !== 'completed') throw new Error(`the agent responded with: ${JSON.stringify({ state: answer.state, response: answer.text })}`);
    this.transcript.push({ to: 'green', text: answer.text });
    return { text: answer.text, contextId: answer.contextId };
  }

  private async sendV1(text: string, contextId: string | undefined, deadlineMs: number): Promise<AgentAnswer> {
    let last: Extract<PeerEvent, { kind: 'message' | 'task' | 'status' }> | undefined;
    const artifacts: Extract<PeerEvent, { kind: 'artifact' }>[] = [];
    for await (const event of this.solver.streamText(contextId ?? '', text, { deadlineMs })) {
      if (event.kind === 'artifact') artifacts.push(event);
      else last = event;
    }
    if (!last) throw new Error('the agent answered nothing');
    const state = last.kind === 'message' ? 'completed' : last.state;
    const reply = [last, ...artifacts].map(mergeParts).join('');
    const turn = last.kind === 'message' ? undefined : { taskId: last.taskId, state, artifacts: artifacts.map((artifact) => artifact.name) };
    return { state, text: reply, contextId: last.contextId, turn };
  }

  // messenger.py `send_message`: a client made for each call, which reads the card first (`A2ACardResolver`,
  // `ClientFactory(ClientConfig(..., streaming=streaming)).create(agent_card)`); the task its events built is read as above.
  private async sendV03(text: string, contextId: string | undefined): Promise<AgentAnswer> {
    const client = await A2aV03Client.connect(this.solverUrl, { streaming: true });
    try {
      const result = await client.send(text, contextId === undefined ? {} : { contextId });
      if (result.kind === 'message') return { state: 'completed', text: mergeV03Parts(result.parts), contextId: result.contextId ?? '' };
      const artifacts = result.artifacts ?? [];
      const reply = [result.status.message?.parts ?? [], ...artifacts.map((artifact) => artifact.parts)].map(mergeV03Parts).join('');
      const turn = { taskId: result.id, state: result.status.state, artifacts: artifacts.map((artifact) => artifact.name ?? '') };
      return { state: result.status.state, text: reply, contextId: result.contextId, turn };
    } finally {
      this.exchanges.push(...client.exchanges);
    }
  }
}

/** One call's answer: the state of the solver's task (`completed` for a bare message), the reply text, and the turn it was. */
interface AgentAnswer {
  state: string;
  text: string;
  contextId: string;
  turn?: { taskId: string; state: string; artifacts: string[] };
}

// messenger.py `merge_parts`: text parts as they are, data parts as `json.dumps(data, indent=2)`, joined by newlines.
function mergeParts(event: PeerEvent): string {
  return [...(event.text ? [event.text] : []), ...event.data.map((data) => JSON.stringify(data, null, 2))].join('\n');
}

// agent.py `_decode_protocol_message`: a reply that is not JSON is the final output; JSON that is no object raises.
function decode(text: string): ShellMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'final', output: text };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`Expected JSON object payload, got: ${text}`);
  const message = parseShellMessage(text);
  if (!message) throw new Error(`Unexpected agent payload: ${text}`);
  return message;
}
