import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  A2aClientFactory,
  DIALECTS,
  formatCommandResult,
  formatShellMessage,
  parseAssessmentSaved,
  TERMINAL_BENCH_SHELL,
  waitForAgentCard,
  type PeerEvent,
} from '@arvo-rca/a2a-protocol';
import { freePort, readJson } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { A2aV03Client, mergeV03Parts, type V03Message, type V03Task } from './support/a2a/a2a-v03-client';
import { AgentProcess, ROOT, Scratch, startAgent } from './support/processes/agent-processes';
import { TaskShell } from './support/engines/task-shell';
import { TerminalBenchAssessor } from './support/stand-ins/terminal-bench-assessor';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

/** An example of examples/ as a reader runs it: its one file under tsx, on a free port, until it serves its card. */
async function startExample(file: string): Promise<AgentProcess> {
  const port = await freePort();
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, join(ROOT, 'examples', file), '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  // An AgentProcess for its log and its stop; the name only labels messages.
  const example = new AgentProcess('purple-agent', `http://127.0.0.1:${port}/`, child);
  await waitForAgentCard(example.url, { intervalMs: 100, gone: () => (example.exited ? `${file} exited:\n${example.log}` : undefined) });
  return example;
}

/** `file` started for the describe block, and a shell on sample 3's files for it to work in; both gone after its tests. */
function exampleOnSample3(file: string): { example: () => AgentProcess; shell: () => TaskShell } {
  let example: AgentProcess | undefined;
  let shell: TaskShell | undefined;
  beforeAll(async () => {
    example = await startExample(file);
    shell = TaskShell.forSample(3);
  });
  afterAll(async () => {
    await example?.stop();
    shell?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`${file} is there only inside its describe block's tests`);
    return value;
  };
  return { example: () => started(example), shell: () => started(shell) };
}

/** The loc.json each run of the example wrote, as it printed it (`loc.json {...}`). */
function writtenLocJsons(example: AgentProcess): unknown[] {
  return [...example.log.matchAll(/^loc\.json (.*)$/gm)].map((match) => JSON.parse(match[1]));
}

/** The loc.json a run wrote in `shell`'s workspace, checked to name the top in-project frame of the workspace's crash report. */
function expectTopFrameNamed(shell: TaskShell): unknown {
  const written = JSON.parse(readFileSync(join(shell.dir, 'shared', 'loc.json'), 'utf8')) as {
    locations: { file: string; function: string; line_start: number }[];
  };
  const [location] = written.locations;
  const topFrame = /#\d+ 0x[0-9a-f]+ in \S+ \/src\/[^/\s]+\/\S+:\d+/.exec(readFileSync(join(shell.dir, 'error.txt'), 'utf8'))?.[0];
  expect(topFrame).toMatch(new RegExp(` in ${location.function} /src/[^/]+/${location.file}:${location.line_start}$`));
  return written;
}

/** A JSON-RPC call as a client sends it, with or without an A2A-Version header: the HTTP status and the body. */
async function rawCall(url: string, method: string, params: object, version?: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  return { status: response.status, body: await response.json() };
}

// An example copies no import but the SDK's; its card must still name a dialect as the agents do.
const EXAMPLES = [
  { file: 'reply-solver.ts', dialect: DIALECTS.reply },
  { file: 'terminal-bench-solver.ts', dialect: DIALECTS.terminalBenchShell },
];

describeWithDocker('the example solvers of examples/, each run as a reader runs it against the green agent', () => {
  describe.each(EXAMPLES)('$file, on every sample', ({ file, dialect }) => {
    const scratch = new Scratch();
    let example: AgentProcess;
    let green: AgentProcess;
    let result: AssessmentResult;
    let recordDir: string;

    beforeAll(async () => {
      [example, green] = await Promise.all([startExample(file), startAgent('green-agent', { ...scratch.env(), SANDBOX: 'docker' })]);
      // No solver_protocol: the green agent takes the dialect from the example's card.
      const request = { participants: { agent: example.url }, config: { task_ids: SAMPLES, concurrency: 2 } };
      const events: PeerEvent[] = [];
      // Whatever ends the run short, both processes' logs say where it stood.
      const stood = (): string =>
        `last events: ${JSON.stringify(events.slice(-3))}\ngreen agent:\n${green.log.slice(-6000)}\nexample:\n${example.log.slice(-4000)}`;
      try {
        for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
          events.push(event);
      } catch (error) {
        throw new Error(`the assessment did not end: ${error instanceof Error ? error.message : String(error)}\n${stood()}`, { cause: error });
      }
      const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
      if (!artifact) throw new Error(`no Result artifact; ${stood()}`);
      result = artifact.data[0];
      recordDir = parseAssessmentSaved((events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
    });

    afterAll(async () => {
      await Promise.all([example?.stop(), green?.stop()]);
      scratch.remove();
    });

    it('is spoken to in the dialect its card declares', () => {
      expect(readFileSync(join(scratch.runDir, 'agents.log'), 'utf8')).toContain(`the solver is spoken to in ${dialect}`);
    });

    it('has every task scored', () => {
      expect(Object.fromEntries(SAMPLES.map((task) => [task, result.task_metrics[task]?.status]))).toEqual(
        Object.fromEntries(SAMPLES.map((task) => [task, 'scored'])),
      );
      expect(result.n_scored).toBe(SAMPLES.length);
    });

    it('has each task scored on the loc.json the example wrote for it, naming the top in-project frame of its crash report', () => {
      const written = writtenLocJsons(example);
      expect(written).toHaveLength(SAMPLES.length);
      for (const task of SAMPLES) {
        const folder = join(recordDir, 'tasks', task.replace(':', '_'));
        const recorded = JSON.parse(readFileSync(join(folder, 'loc.json'), 'utf8')) as { locations: { file: string; function: string; line_start: number }[] };
        expect(written).toContainEqual(recorded);
        const [location] = recorded.locations;
        const topFrame = /#\d+ 0x[0-9a-f]+ in \S+ \/src\/[^/\s]+\/\S+:\d+/.exec(readFileSync(join(folder, 'crash.txt'), 'utf8'))?.[0];
        expect(topFrame).toMatch(new RegExp(` in ${location.function} /src/[^/]+/${location.file}:${location.line_start}$`));
      }
    });

    it('earns what naming the crash site earns: the function of the fix where the crash happens in it (sample 3)', () => {
      expect(result.task_metrics['sample:3']).toMatchObject({ file_acc: 1, func_recall: 1 });
      expect(result.task_metrics['sample:1']).toMatchObject({ file_acc: 0, func_recall: 0 });
    });
  });

  it('runs against the samples in one command, `npm run example -- terminal-bench` (after the build), and exits 0', async () => {
    const scratch = new Scratch();
    try {
      const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
      const child = spawn(
        process.execPath,
        [tsx, '--tsconfig', 'tools/tsconfig.json', 'tools/examples/run-example.ts', 'terminal-bench', '--tasks', 'sample:3'],
        {
          cwd: ROOT,
          env: { ...process.env, ...scratch.env(), CI: process.env['CI'] ?? '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      expect({ code, output }).toMatchObject({ code: 0, output: expect.stringMatching(/^1 of 1 scored in /m) });
      expect(readFileSync(join(scratch.logs, 'example-terminal-bench.log'), 'utf8')).toMatch(/^loc\.json \{"reasoning"/m);
    } finally {
      scratch.remove();
    }
  });
});

describe("the example solvers of examples/, each run as a reader runs it, spoken to in A2A 0.3 as AgentBeats' Python clients speak it", () => {
  describe.each(EXAMPLES)('$file', ({ file }) => {
    let example: AgentProcess;

    beforeAll(async () => (example = await startExample(file)));
    afterAll(() => example?.stop());

    it('serves its card in the 0.3 shape to a caller that sends no A2A-Version, keeping the 1.0 interfaces, and in the 1.0 shape to a 1.0 caller', async () => {
      const cardUrl = new URL('/.well-known/agent-card.json', example.url);
      const interfaces = [
        { url: example.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: example.url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ];
      const legacy = await readJson(await fetch(cardUrl));
      const v1 = await readJson(await fetch(cardUrl, { headers: { 'A2A-Version': '1.0' } }));

      expect(legacy).toMatchObject({ url: example.url, protocolVersion: '0.3', preferredTransport: 'JSONRPC', capabilities: { streaming: true } });
      expect(legacy['supportedInterfaces']).toEqual(interfaces);
      expect(v1['supportedInterfaces']).toEqual(interfaces);
      expect(Object.keys(v1)).not.toEqual(expect.arrayContaining(['url']));
      expect(Object.keys(v1)).not.toEqual(expect.arrayContaining(['protocolVersion']));
    });

    it('answers a failed call with HTTP 200 and a JSON-RPC error, in the shape of the version asked, and refuses a version it does not serve', async () => {
      expect(await rawCall(example.url, 'tasks/get', { id: 'no-such-task' })).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Task not found: no-such-task' } },
      });
      expect(await rawCall(example.url, 'GetTask', { id: 'no-such-task' }, '1.0')).toMatchObject({
        status: 200,
        body: { jsonrpc: '2.0', id: 7, error: { code: -32001, data: [expect.objectContaining({ reason: 'TASK_NOT_FOUND' })] } },
      });
      expect(await rawCall(example.url, 'GetTask', { id: 'no-such-task' }, '2.0')).toMatchObject({
        status: 200,
        body: { jsonrpc: '2.0', id: 7, error: { code: -32009, message: expect.stringContaining("'2.0' is not supported") } },
      });
    });
  });

  describe('reply-solver.ts, over message/send (a client whose card or config does not stream)', () => {
    const { example, shell } = exampleOnSample3('reply-solver.ts');

    it('runs sample 3 on one 0.3 task: each command in a text status message of state input-required, then [TASK FINISHED] completed', async () => {
      const client = await A2aV03Client.connect(example().url, { streaming: false });
      let answer: V03Task | V03Message = await client.send('Find the root cause of the crash in /workspace/error.txt.');
      const answers = [answer];
      // The green agent's part in the reply dialect: run the command, answer with its result on the same task.
      while (answer.kind === 'task' && answer.status.state === 'input-required' && answers.length < 10) {
        const command = mergeV03Parts(answer.status.message?.parts ?? []).replace(/^execute: /, '');
        const result = await shell().exec(command, 30);
        answer = await client.send(formatCommandResult({ returncode: result.exit_code, output: result.stdout + result.stderr }), {
          contextId: answer.contextId,
          taskId: answer.id,
        });
        answers.push(answer);
      }

      const [first] = answers as V03Task[];
      const inText = (text: string | RegExp) => ({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text }] });
      expect(answers).toEqual([
        expect.objectContaining({
          kind: 'task',
          id: first.id,
          status: expect.objectContaining({ state: 'input-required', message: expect.objectContaining(inText('execute: cat /workspace/*error.txt')) }),
        }),
        expect.objectContaining({
          kind: 'task',
          id: first.id,
          status: expect.objectContaining({
            state: 'input-required',
            message: expect.objectContaining(inText(expect.stringMatching(/^execute: sed -n '\d+p' \/workspace\/src-vul\//))),
          }),
        }),
        expect.objectContaining({
          kind: 'task',
          id: first.id,
          status: expect.objectContaining({
            state: 'input-required',
            message: expect.objectContaining(inText(expect.stringMatching(/^execute: mkdir -p \/workspace\/shared && cat > \/workspace\/shared\/loc.json/))),
          }),
        }),
        expect.objectContaining({
          kind: 'task',
          id: first.id,
          contextId: first.contextId,
          status: expect.objectContaining({ state: 'completed', message: expect.objectContaining(inText('[TASK FINISHED]')) }),
        }),
      ]);
      expect(client.exchanges.map(({ method, url, status }) => [method, url, status])).toEqual([
        ['GET', new URL('/.well-known/agent-card.json', example().url).toString(), 200],
        ...Array(4).fill(['message/send', example().url, 200]),
      ]);
      expect(writtenLocJsons(example())).toEqual([expectTopFrameNamed(shell())]);
    });
  });

  describe("terminal-bench-solver.ts, under the stand-in of AgentBeats' terminal-bench assessor speaking 0.3", () => {
    const { example, shell } = exampleOnSample3('terminal-bench-solver.ts');

    it('answers the task envelope over message/send with a completed 0.3 task, its exec_request in a text part of an artifact named Result', async () => {
      const client = await A2aV03Client.connect(example().url, { streaming: false });

      const answer = await client.send(formatShellMessage({ kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: 'Find the root cause.' }));

      expect(answer).toMatchObject({ kind: 'task', status: { state: 'completed' }, artifacts: [{ name: 'Result', parts: [{ kind: 'text' }] }] });
      const [artifact] = (answer as V03Task).artifacts ?? [];
      expect(JSON.parse(artifact.parts[0].text ?? '')).toEqual({ kind: 'exec_request', command: 'cat /workspace/*error.txt', timeout: 30 });
    });

    it('runs a session on sample 3 over message/stream to its final, each turn a completed task of its own with its Result, and writes loc.json naming the top frame', async () => {
      const assessor = new TerminalBenchAssessor(example().url, shell(), { a2a: '0.3' });

      const output = await assessor.runSession('Find the root cause of the crash in /workspace/error.txt.');

      expect(output).toBe('wrote /workspace/shared/loc.json');
      expect(assessor.turns.map(({ state, artifacts }) => [state, artifacts])).toEqual(Array(4).fill(['completed', ['Result']]));
      expect(new Set(assessor.turns.map((turn) => turn.taskId)).size).toBe(4);
      // Each call reads the card (messenger.py `send_message`), then streams, since the card says it can.
      const cardUrl = new URL('/.well-known/agent-card.json', example().url).toString();
      expect(assessor.exchanges.map(({ method, url, status }) => [method, url, status])).toEqual(
        Array(4)
          .fill([
            ['GET', cardUrl, 200],
            ['message/stream', example().url, 200],
          ])
          .flat(),
      );
      expect(writtenLocJsons(example())).toContainEqual(expectTopFrameNamed(shell()));
    });
  });
});
