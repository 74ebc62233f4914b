// A minimal solver in the reply dialect: it answers each message of the assessor with its next command,
// `execute: <command>` in state input-required, and `[TASK FINISHED]` (completed) once loc.json is written.
// Its strategy is naive but real: it reads the crash report and names the top in-project frame.
// Run: npx tsx examples/reply-solver.ts --port 9019   (copy this file alone; it needs only @a2a-js/sdk)
// It serves A2A 1.0 and 0.3 on one URL, from one card and executor: AgentBeats' assessors and gateway speak 0.3
// (the Python a2a-sdk 0.3 client, which sends no A2A-Version header).
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { AGENT_CARD_PATH, AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

/** The fixed script: each `yield` sends a command and takes back its output. */
function* solve(): Generator<string, void, string> {
  const report = yield 'cat /workspace/*error.txt';
  // The first frame inside the project (`#0 0x... in func /src/<project>/<file>:<line>`) is the crash site.
  const frame = /#\d+ 0x[0-9a-f]+ in (\S+) \/src\/([^/\s]+)\/(\S+?):(\d+)/.exec(report);
  if (!frame) return;
  const [, func, project, file, line] = frame;
  const source = yield `sed -n '${line}p' /workspace/src-vul/${project}/${file}`;
  const location = { file, function: func, line_start: Number(line), line_end: Number(line), description: `crash site: ${source.trim()}` };
  const locJson = JSON.stringify({ reasoning: 'the top in-project frame of the stack', locations: [location] });
  console.log(`loc.json ${locJson}`);
  yield `mkdir -p /workspace/shared && cat > /workspace/shared/loc.json <<'EOF'\n${locJson}\nEOF`;
}

/** One run of the script per context; a command's result arrives as `<returncode>N</returncode>\n<output>\n…\n</output>`. */
class ReplySolver implements AgentExecutor {
  private readonly runs = new Map<string, Generator<string, void, string>>();

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { contextId } = request;
    const text = request.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    const run = this.runs.get(contextId) ?? solve();
    const output = /<output>\n([\s\S]*)\n<\/output>/.exec(text)?.[1] ?? '';
    const step = this.runs.has(contextId) ? run.next(output) : run.next();
    this.runs.set(contextId, run);
    if (step.done) this.runs.delete(contextId);
    console.log(step.done ? `${contextId}: done` : `${contextId}: $ ${step.value.split('\n')[0]}`);
    if (step.done) answer(request, bus, 'TASK_STATE_COMPLETED', '[TASK FINISHED]');
    else answer(request, bus, 'TASK_STATE_INPUT_REQUIRED', `execute: ${step.value}`);
  }

  // Each turn is answered at once, so no task of this solver is ever left running to cancel.
  async cancelTask(taskId: string): Promise<void> {
    throw new TaskNotCancelableError(`task ${taskId} is not running`);
  }
}

/** Opens the request's task (A2A wants it first, even when this message continues it) and ends the turn in `state` with `text`. */
function answer(request: RequestContext, bus: ExecutionEventBus, state: string, text: string): void {
  const { taskId, contextId, userMessage } = request;
  const task = request.task ?? { ...Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' } }), history: [userMessage] };
  const message = { messageId: randomUUID(), taskId, contextId, role: 'ROLE_AGENT', parts: [{ text }] };
  bus.publish(AgentEvent.task(task));
  bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state, message } })));
  bus.finished();
}

const { values } = parseArgs({ options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: '9019' } } });
const url = `http://${values.host}:${values.port}/`;
// The card, as JSON on the wire: a skill tagged with the dialect's name tells the assessor which one to speak.
// One URL answers A2A 1.0 and 0.3 (AgentBeats' assessors and gateway speak 0.3, with the Python a2a-sdk).
const cardJson = {
  name: 'reply-mode example solver',
  description: 'Names the crash site of an arvo-rca task.',
  version: '1.0.0',
  supportedInterfaces: [
    { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'root-cause', name: 'Root cause', description: 'Names where a crash is', tags: ['reply'] }],
};
const card = AgentCard.fromJSON(cardJson);
// A 0.3 client reads the card in the 0.3 shape (URL, version and transport at the top); a 1.0 client finds supportedInterfaces in it too.
const cards = { '1.0': cardJson, '0.3': { ...cardJson, url, preferredTransport: 'JSONRPC', protocolVersion: '0.3' } };
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ReplySolver());
const v1 = new JsonRpcTransportHandler(handler);
const v03 = new LegacyJsonRpcTransportHandler(handler);

// The server below is the same in both examples, so that each stays one file to copy.
createServer(async (req, res) => {
  // A request without A2A-Version is A2A 0.3 (the context's default), as the Python 0.3 client sends none.
  const version = req.headers['a2a-version'];
  const context = new ServerCallContext({ requestedVersion: typeof version === 'string' ? version : undefined });
  const legacy = context.requestedVersion === '0.3';
  if (req.method === 'GET' && req.url === `/${AGENT_CARD_PATH}`) return void sendJson(res, cards[legacy ? '0.3' : '1.0']);
  if (req.method !== 'POST') return void res.writeHead(404).end();
  let body = '';
  for await (const chunk of req) body += chunk;
  const toError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
  const failed = (error: unknown) => ({ jsonrpc: '2.0', id: requestId(body), error: toError(error) });
  // Every error is a JSON-RPC error with HTTP 200: the Python 0.3 client raises on an HTTP error status before it reads the body.
  let response;
  try {
    validateVersion(context.requestedVersion, card, 'JSONRPC');
    response = legacy ? await v03.handle(body, context) : await v1.handle(body, context);
  } catch (error) {
    return void sendJson(res, failed(error));
  }
  if (!(Symbol.asyncIterator in response)) return void sendJson(res, response);
  res.writeHead(200, SSE_HEADERS);
  try {
    for await (const event of response) res.write(formatSSEEvent(event));
  } catch (error) {
    res.write(formatSSEErrorEvent(failed(error)));
  }
  res.end();
}).listen(Number(values.port), values.host, () => console.log(`reply-mode example solver at ${url} (A2A 1.0 and 0.3)`));

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function requestId(body: string): unknown {
  try {
    return (JSON.parse(body) as { id?: unknown }).id ?? null;
  } catch {
    return null;
  }
}
