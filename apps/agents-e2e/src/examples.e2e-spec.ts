import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aClientFactory, parseAssessmentSaved, waitForAgentCard, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { AgentProcess, ROOT, Scratch, startAgent } from './support/agent-processes';

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

/** The loc.json each run of the example wrote, as it printed it (`loc.json {...}`). */
function writtenLocJsons(example: AgentProcess): unknown[] {
  return [...example.log.matchAll(/^loc\.json (.*)$/gm)].map((match) => JSON.parse(match[1]));
}

const EXAMPLES = [
  { file: 'reply-solver.ts', dialect: 'reply' },
  { file: 'terminal-bench-solver.ts', dialect: 'terminal-bench-shell-v1' },
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
      for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
        events.push(event);
      const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
      if (!artifact) throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}\n${example.log}`);
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
