import { randomUUID } from 'node:crypto';
import { parseSseBody } from '@arvo-rca/a2a-protocol/testing';

/** What the AgentBeats gateway serves of an assessment: the last task state it saw (null when it saw none), and the Result's data. */
export interface GatewayOutput {
  status: string | null;
  results: unknown[];
}

// The v0.3 events of `message/stream`, as far as the gateway reads them.
interface StreamPart {
  kind?: string;
  data?: unknown;
  text?: string;
}
interface StreamArtifact {
  parts?: StreamPart[];
}
interface StreamEvent {
  kind?: string;
  status?: { state?: string };
  artifacts?: StreamArtifact[];
  artifact?: StreamArtifact;
}

/**
 * The A2A side of AgentBeats' gateway (RDI-Foundation/agentbeats-gateway src/assessment.py), on the wire
 * as its Python a2a 0.3 client speaks:
 * - it reads the agent card first (`A2ACardResolver.get_agent_card`, in `send_message`);
 * - the request `{"participants", "config"}` (or, for tests, any text) goes as JSON text in one text part, with no context id
 *   (`run_assessment`, `outbound_msg`), streamed (`ClientConfig(streaming=True)`), without an
 *   `A2A-Version` header (the 0.3 client sends none);
 * - `final_status` is the state of the last task or status-update event; a bare message is printed and
 *   sets nothing, so the output's status stays `None`, served as `null` (the `case Message()` arm);
 * - the client keeps the task as the events build it (its artifacts included); its artifacts are kept
 *   only when a state is `completed`, and their data parts (and text parts that
 *   parse as JSON) become `results` (`parse_parts`, `run_assessment`'s `finally`);
 * - an exception makes the status `failed` (`run_assessment`'s `except`).
 */
export async function runAssessmentAsGateway(greenUrl: string, request: object | string): Promise<GatewayOutput> {
  let status: string | null = null;
  let artifacts: StreamArtifact[] = [];
  const taskArtifacts: StreamArtifact[] = [];
  try {
    const card = await fetch(new URL('/.well-known/agent-card.json', greenUrl));
    if (!card.ok) throw new Error(`agent card: HTTP ${card.status}`);
    const message = {
      kind: 'message',
      role: 'user',
      messageId: randomUUID().replace(/-/g, ''),
      parts: [{ kind: 'text', text: typeof request === 'string' ? request : JSON.stringify(request) }],
    };
    const response = await fetch(greenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'message/stream', params: { message } }),
      signal: AbortSignal.timeout(300_000),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    for (const envelope of parseSseBody(await response.text()).events as { result?: StreamEvent; error?: { message: string } }[]) {
      if (envelope.error) throw new Error(envelope.error.message);
      const event = envelope.result ?? {};
      if (event.kind === 'task') taskArtifacts.push(...(event.artifacts ?? []));
      if (event.kind === 'artifact-update' && event.artifact) taskArtifacts.push(event.artifact);
      if (event.kind !== 'task' && event.kind !== 'status-update') continue;
      status = event.status?.state ?? status;
      if (status === 'completed') artifacts = [...taskArtifacts];
    }
  } catch {
    status = 'failed';
  }
  return { status, results: artifacts.flatMap((artifact) => (artifact.parts ?? []).flatMap(dataOf)) };
}

function dataOf(part: StreamPart): unknown[] {
  if (part.kind === 'data') return [part.data];
  try {
    return part.kind === 'text' && part.text !== undefined ? [JSON.parse(part.text) as unknown] : [];
  } catch {
    return [];
  }
}
