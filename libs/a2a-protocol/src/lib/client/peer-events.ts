import { Role, TaskState, type Artifact, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk';

// What a peer's answers mean to the apps, without JSON-RPC or protobuf shapes: texts, states, data.

export type PeerTaskState = 'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'failed' | 'canceled' | 'rejected' | 'unknown';

// `data` holds the data parts of the message as they came (on a final status, how the peer's run ended).
export type PeerEvent =
  /** The peer answered with a message instead of a task (the exchange is over). */
  | { kind: 'message'; contextId: string; text: string; data: unknown[] }
  /** The task as the peer created or last saw it, with its status message. */
  | { kind: 'task'; taskId: string; contextId: string; state: PeerTaskState; text: string; data: unknown[] }
  /** A change of the task's state, with the message the peer attached (a step report, a final answer). */
  | { kind: 'status'; taskId: string; contextId: string; state: PeerTaskState; text: string; data: unknown[] }
  /** An output of the task: its text parts joined, its data parts as they came. */
  | { kind: 'artifact'; taskId: string; contextId: string; name: string; text: string; data: unknown[] };

const STATES: Record<number, PeerTaskState> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
};

const TERMINAL: ReadonlySet<PeerTaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
const UNSUCCESSFUL: ReadonlySet<PeerTaskState> = new Set(['failed', 'canceled', 'rejected']);

/** A state after which the task does nothing more. */
export function isTerminalState(state: PeerTaskState): boolean {
  return TERMINAL.has(state);
}

export function isUnsuccessfulState(state: PeerTaskState): boolean {
  return UNSUCCESSFUL.has(state);
}

export function toPeerEvent(response: StreamResponse): PeerEvent | undefined {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'message':
      return { kind: 'message', contextId: payload.value.contextId, text: messageText(payload.value), data: partsData(payload.value.parts) };
    case 'task': {
      const task = payload.value;
      return {
        kind: 'task',
        taskId: task.id,
        contextId: task.contextId,
        state: taskState(task),
        text: taskText(task),
        data: partsData(task.status?.message?.parts ?? []),
      };
    }
    case 'statusUpdate': {
      const { taskId, contextId, status } = payload.value;
      const message = status?.message;
      return {
        kind: 'status',
        taskId,
        contextId,
        state: toPeerState(status?.state),
        text: message ? messageText(message) : '',
        data: partsData(message?.parts ?? []),
      };
    }
    case 'artifactUpdate': {
      const { taskId, contextId, artifact } = payload.value;
      return {
        kind: 'artifact',
        taskId,
        contextId,
        name: artifact?.name ?? '',
        text: partsText(artifact?.parts ?? []),
        data: partsData(artifact?.parts ?? []),
      };
    }
    default:
      return undefined;
  }
}

export function toPeerState(state: TaskState | undefined): PeerTaskState {
  return (state !== undefined && STATES[state]) || 'unknown';
}

export function taskState(task: Task): PeerTaskState {
  return toPeerState(task.status?.state);
}

export function messageText(message: Message): string {
  return partsText(message.parts);
}

/** The text a task answers with: its status message, else its artifacts, else its last agent message. */
export function taskText(task: Task): string {
  if (task.status?.message) {
    const text = messageText(task.status.message);
    if (text) return text;
  }
  const artifacts = artifactsText(task.artifacts ?? []);
  if (artifacts) return artifacts;
  const reply = [...(task.history ?? [])].reverse().find((message) => message.role === Role.ROLE_AGENT);
  return reply ? messageText(reply) : '';
}

function artifactsText(artifacts: Artifact[]): string {
  return artifacts
    .map((artifact) => partsText(artifact.parts))
    .filter(Boolean)
    .join('\n');
}

function partsText(parts: Part[]): string {
  return parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter(Boolean)
    .join('\n');
}

function partsData(parts: Part[]): unknown[] {
  return parts.flatMap((part) => (part.content?.$case === 'data' ? [part.content.value] : []));
}
