// A minimal solver in reply mode: it answers each message of the assessor with its next command,
// `execute: <command>` in state input-required, and `[TASK FINISHED]` (completed) once loc.json is written.
// Its strategy is naive but real: it reads the crash report and names the top in-project frame.
// Run: npx tsx examples/reply-solver.ts --port 9019   (copy this file alone; it needs only @a2a-js/sdk)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { AGENT_CARD_PATH, formatSSEEvent, Role, SSE_HEADERS, TaskState, type AgentCard, type Task } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from '@a2a-js/sdk/server';
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
    answer(request, bus, step.done ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_INPUT_REQUIRED, step.done ? '[TASK FINISHED]' : `execute: ${step.value}`);
  }

  async cancelTask(): Promise<void> {}
}

/** Opens the request's task (A2A wants it first, even when this message continues it) and ends the turn in `state` with `text`. */
function answer(request: RequestContext, bus: ExecutionEventBus, state: TaskState, text: string): void {
  const { taskId, contextId, userMessage } = request;
  const now = new Date().toISOString();
  const task: Task = request.task ?? { id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now }, artifacts: [], history: [userMessage], metadata: undefined };
  const part = { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
  const message = { messageId: randomUUID(), taskId, contextId, role: Role.ROLE_AGENT, parts: [part], metadata: undefined, extensions: [], referenceTaskIds: [] };
  bus.publish(AgentEvent.task(task));
  bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: now }, metadata: undefined }));
  bus.finished();
}

const { values } = parseArgs({ options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: '9019' } } });
const url = `http://${values.host}:${values.port}/`;
const card: AgentCard = {
  name: 'reply-mode example solver',
  description: 'Names the crash site of an arvo-rca task.',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
  provider: undefined,
  version: '1.0.0',
  capabilities: { streaming: true, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  // A skill tagged with its dialect's name tells the assessor which one to speak.
  skills: [{ id: 'root-cause', name: 'Root cause', description: 'Names where a crash is', tags: ['reply'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};
const rpc = new JsonRpcTransportHandler(new DefaultRequestHandler(card, new InMemoryTaskStore(), new ReplySolver()));

createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === `/${AGENT_CARD_PATH}`) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
  if (req.method !== 'POST') return void res.writeHead(404).end();
  let body = '';
  for await (const chunk of req) body += chunk;
  const version = req.headers['a2a-version'];
  const response = await rpc.handle(body, new ServerCallContext({ requestedVersion: typeof version === 'string' ? version : '1.0' }));
  if (!(Symbol.asyncIterator in response)) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
  res.writeHead(200, SSE_HEADERS);
  for await (const event of response) res.write(formatSSEEvent(event));
  res.end();
}).listen(Number(values.port), values.host, () => console.log(`reply-mode example solver at ${url}`));
