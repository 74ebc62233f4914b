import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, parseAssessmentSaved, parseShellMessage, type ExecRequest, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { LOC_JSON_PATH } from '@arvo-rca/common';
import { GroundTruthExtractor, type GroundTruth } from '@arvo-rca/rca-eval';
import type { AssessmentResult, TaskRecord } from '@arvo-rca/results';
import { RecordLayout } from '@arvo-rca/run-record';
import { startGreenApp } from '../../stage/green-app.testing';
import { startTerminalBenchSolver, type TerminalBenchSolver } from './terminal-bench-solver.testing';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', '..', 'samples');
const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

describeWithDocker('green agent with a terminal-bench solver (terminal-bench-shell-v1)', () => {
  const clients = new A2aClientFactory();
  const saved = { ...process.env };
  const truths = new Map<string, GroundTruth>();
  /** The loc.json each sample's solver was scripted to write. */
  const written = new Map<string, string>();
  let scratch: string, solver: TerminalBenchSolver, green: NestFastifyApplication, greenUrl: string;

  beforeAll(async () => {
    // The fix location of each sample, as the judge works it out from the sample's patch and tree.
    const extractor = await GroundTruthExtractor.create();
    for (const task of SAMPLES) {
      const dir = join(SAMPLES_DIR, task.split(':')[1]);
      truths.set(task, await extractor.fromPatch(readFileSync(join(dir, 'patch.diff'), 'utf8'), join(dir, 'source')));
    }
    scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-terminal-bench-'));
    mkdirSync(join(scratch, 'tasks'));
    solver = await startTerminalBenchSolver(solving);
    ({ app: green, url: greenUrl } = await startGreenApp(scratch, { agent: solver.agent, greenUrl: '' }, { MASK_TASK_IDS: 'off' }));
  });

  afterAll(async () => {
    await green?.close();
    await solver?.agent.close();
    rmSync(scratch, { recursive: true, force: true });
    process.env = { ...saved };
  });

  // The dummy's commands: look at the tree, run one command past the time it asks for, write loc.json naming the fix.
  function solving(instruction: string): ExecRequest[] {
    const task = /^Task ID: (\S+)$/m.exec(instruction)?.[1] ?? '';
    const truth = truths.get(task);
    if (!truth) return [];
    const spans = truth.rootCause && truth.rootCause.length > 0 ? truth.rootCause : truth.spans;
    const locations = spans
      .filter((span) => span.vulSpan)
      .slice(0, 3)
      .map((span) => ({ file: span.file, function: span.function, line_start: span.vulSpan?.start, line_end: span.vulSpan?.end, description: 'the fix' }));
    const locJson = JSON.stringify({ reasoning: 'where the fix goes', locations }, null, 2);
    written.set(task, locJson);
    return [
      { kind: 'exec_request', command: 'ls /workspace/src-vul' },
      { kind: 'exec_request', command: 'sleep 5; echo late', timeout: 1 },
      { kind: 'exec_request', command: `cat > ${LOC_JSON_PATH} <<'EOF'\n${locJson}\nEOF`, timeout: 1000 },
    ];
  }

  /** The assessment's Result, its run record's folder, and the progress it streamed, a line each (an update may carry several). */
  async function assess(request: unknown): Promise<{ result: AssessmentResult; recordDir: string; progress: string[] }> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 600_000 })) events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact');
    const saved = parseAssessmentSaved(events.at(-1)?.data ?? []);
    if (!artifact || !saved) throw new Error(`the green agent sent no Result: ${events.map((event) => event.text).join(' | ')}`);
    return { result: artifact.data[0] as AssessmentResult, recordDir: saved.recordDir, progress: events.flatMap((event) => event.text.split('\n')) };
  }

  function recorded(recordDir: string, task: string): { record: TaskRecord; submission: string } {
    const layout = new RecordLayout(recordDir);
    return {
      record: JSON.parse(readFileSync(layout.taskFile(task), 'utf8')) as TaskRecord,
      submission: readFileSync(layout.taskFile(task, 'loc.json'), 'utf8'),
    };
  }

  it("runs every sample in the solver's dialect, which its card declares, and scores the loc.json the solver wrote", async () => {
    const { result, recordDir } = await assess({ participants: { purple_agent: solver.agent.url }, config: { task_ids: SAMPLES } });

    expect(result).toMatchObject({ n_tasks: 5, n_scored: 5, file_acc_mean: 1 });
    const greenContexts: string[] = [];
    for (const task of SAMPLES) {
      expect(result.task_metrics[task]).toMatchObject({ status: 'scored', file_acc: 1, func_recall: 1, n_commands: 3 });
      // What was scored is the file the solver wrote, read from its container.
      const { record, submission } = recorded(recordDir, task);
      expect(record).toMatchObject({ finish_reason: 'finished' });
      expect(submission.trimEnd()).toBe(written.get(task));
      greenContexts.push(record.context_id);
    }
    expect(solver.runs).toHaveLength(5);
    for (const run of solver.runs) {
      // The task envelope opens a conversation of the solver's own, and carries our task description.
      const envelope = parseShellMessage(run.received[0]);
      expect(envelope).toMatchObject({ kind: 'task', protocol: 'terminal-bench-shell-v1' });
      const instruction = envelope?.kind === 'task' ? envelope.instruction : '';
      expect(instruction).toMatch(/^# Root-cause analysis task sample:\d$/m);
      expect(instruction).toContain('/workspace/src-vul/');
      expect(instruction).toContain('ERROR: AddressSanitizer');
      expect(instruction).toContain(`When \`${LOC_JSON_PATH}\` is written,\nanswer \`final\``);
      expect(instruction).not.toContain('execute:');
      // Every turn its own A2A task on the same context; each command's result back as an exec_result.
      expect(run.received).toHaveLength(4);
      expect(new Set(run.taskIds).size).toBe(4);
      expect(run.results[0]).toMatchObject({ exit_code: 0, stderr: '' });
      expect(run.results[0].stdout.trim()).not.toBe('');
      // The solver's 1 s limit holds: the command is stopped, and the timeout says so.
      expect(run.results[1]).toMatchObject({ exit_code: -1, stderr: expect.stringContaining('1 s') });
      expect(run.results[1].stdout).not.toContain('late');
      expect(run.results[2]).toEqual({ kind: 'exec_result', exit_code: 0, stdout: '', stderr: '' });
    }
    // Each envelope came without a context id: the solver opened a context of its own for each task.
    expect(new Set(solver.runs.map((run) => run.contextId)).size).toBe(5);
    for (const run of solver.runs) expect(greenContexts).not.toContain(run.contextId);
  }, 600_000);

  it("speaks the assessment's config.solver_protocol over the card's, keeps it in the record, and a resume speaks it again", async () => {
    solver.runs.length = 0;

    const request = { participants: { purple_agent: solver.agent.url }, config: { task_ids: ['sample:1', 'sample:2'], solver_protocol: 'reply' } };
    const { result, recordDir } = await assess(request);

    // In the reply dialect the dummy gets no envelope and writes nothing; nothing of our text it echoes in its final is run.
    expect(result.task_metrics['sample:1']).toMatchObject({ status: 'no_submission', n_commands: 0 });
    expect(solver.runs.map((run) => parseShellMessage(run.received[0]))).toEqual([undefined, undefined]);
    expect(solver.runs[0].received[0]).toMatch(/^# Root-cause analysis task sample:\d/);
    const assessment = JSON.parse(readFileSync(join(recordDir, 'assessment.json'), 'utf8')) as { id: string; solver_protocol: string };
    expect(assessment).toMatchObject({ solver_protocol: 'reply', solver_protocol_source: 'config' });

    // A record whose second task never ended (its task.json not written): the resume runs it in the recorded
    // dialect, not in the one the card declares.
    rmSync(new RecordLayout(recordDir).taskFile('sample:2'));
    solver.runs.length = 0;
    const resumed = await assess({ participants: { purple_agent: solver.agent.url }, config: { resume: assessment.id } });

    expect(resumed.result.task_metrics['sample:2']).toMatchObject({ status: 'no_submission' });
    expect(solver.runs).toHaveLength(1);
    expect(solver.runs[0].received[0]).toMatch(/^# Root-cause analysis task sample:2/);
  }, 300_000);

  it('finds the dialect of a solver whose card names none from its first answer, starts the task again in it, and records why', async () => {
    const untagged = await startTerminalBenchSolver(solving, 'untagged');
    try {
      const request = { participants: { agent: untagged.agent.url }, config: { task_ids: ['sample:1', 'sample:2'], concurrency: 1 } };
      const { result, recordDir, progress } = await assess(request);

      for (const task of ['sample:1', 'sample:2']) {
        // Scored on the loc.json its script wrote; only the three commands of the script ran.
        expect(result.task_metrics[task]).toMatchObject({ status: 'scored', file_acc: 1, func_recall: 1, n_commands: 3 });
        expect(recorded(recordDir, task).submission.trimEnd()).toBe(written.get(task));
      }
      const assessment = JSON.parse(readFileSync(join(recordDir, 'assessment.json'), 'utf8')) as Record<string, unknown>;
      expect(assessment).toMatchObject({ solver_protocol: 'terminal-bench-shell-v1', solver_protocol_source: 'first-answer' });
      // The first task opened in the reply dialect on its own context, and the solver answered with a final (our text
      // echoed in it); the task started again with the envelope on a new context. The second spoke it at once.
      const [opening, first, second] = untagged.runs;
      expect(untagged.runs).toHaveLength(3);
      expect(opening.contextId).toBe(recorded(recordDir, 'sample:1').record.context_id);
      expect(opening.received).toEqual([expect.stringMatching(/^# Root-cause analysis task sample:1/)]);
      for (const run of [first, second]) {
        expect(parseShellMessage(run.received[0])).toMatchObject({ kind: 'task', protocol: 'terminal-bench-shell-v1' });
        expect(run.received).toHaveLength(4);
      }
      // Each task's log (and its progress) says which dialect it spoke, and why.
      const dialectLines = progress.filter((text) => text.includes('solver dialect:'));
      expect(dialectLines).toEqual([
        '[sample:1] solver dialect: terminal-bench-shell-v1 (from its first answer)',
        '[sample:2] solver dialect: terminal-bench-shell-v1 (from its first answer)',
      ]);

      // A resume speaks the dialect the record names at once.
      rmSync(new RecordLayout(recordDir).taskFile('sample:2'));
      untagged.runs.length = 0;
      const resumed = await assess({ participants: { agent: untagged.agent.url }, config: { resume: assessment['id'] } });
      expect(resumed.result.task_metrics['sample:2']).toMatchObject({ status: 'scored', file_acc: 1, n_commands: 3 });
      expect(untagged.runs.map((run) => parseShellMessage(run.received[0])?.kind)).toEqual(['task']);
      expect(resumed.progress.filter((text) => text.includes('solver dialect:'))).toEqual([
        '[sample:2] solver dialect: terminal-bench-shell-v1 (as its record says)',
      ]);
    } finally {
      await untagged.agent.close();
    }
  }, 600_000);

  it('speaks to the solver of a plain Task ID request in the dialect its card declares', async () => {
    solver.runs.length = 0;
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), 'Task ID: sample:3', { deadlineMs: 300_000 })) events.push(event);

    const artifact = events.find((event) => event.kind === 'artifact');
    expect((artifact?.data[0] as TaskRecord | undefined)?.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
    expect(parseShellMessage(solver.runs[0].received[0])).toMatchObject({ kind: 'task', protocol: 'terminal-bench-shell-v1' });
  }, 300_000);
});
