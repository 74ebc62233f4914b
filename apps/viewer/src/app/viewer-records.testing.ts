// Run records for the viewer's specs, written by the run record's own writer, with the files a task
// keeps: crash report, fix, loc.json, source excerpts, a trajectory and a task log.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { TrajectoryMessage } from '@arvo-rca/common';
import { trajectoryOf } from '@arvo-rca/common/testing';
import type { TaskMetrics, TaskRecordDraft } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { RecordWriter, type ScoringSettings, type SourceExcerpt, type TaskEvidence } from '@arvo-rca/run-record';
import { newAssessment } from '@arvo-rca/run-record/testing';

// The answers below, and the judge's records of them against a fix of `parse` (lines 10 to 12), as the
// judge made them (tools/samples/judged-fixtures.spec.ts makes them, and checks they are current).
const JUDGED = JSON.parse(readFileSync(join(__dirname, 'judged-tasks.json'), 'utf8')) as {
  answers: { good: string; wrong: string };
  metrics: { good: TaskMetrics; wrong: TaskMetrics; failed: TaskMetrics };
};

/** A submission naming `parse`, lines 10 to 12 first, then `main` further down. */
export const GOOD_ANSWER = JUDGED.answers.good;
/** A submission naming another file. */
export const WRONG_ANSWER = JUDGED.answers.wrong;
/** The judge's records of the two answers, and of a task whose image could not be pulled (`pulling the image failed`). */
export const JUDGED_METRICS = JUDGED.metrics;

export const SOURCES: SourceExcerpt[] = [
  {
    path: 'src/a.c',
    start: 8,
    lines: Array.from({ length: 15 }, (_, index) => `line ${8 + index};`),
    fix: [{ start: 10, end: 12 }],
    predicted: [
      { start: 10, end: 12, rank: 1 },
      { start: 20, end: 21, rank: 2 },
    ],
  },
];

/** mini-swe-agent's layout: system, task, then a reply and what it was shown, per step. */
export function trajectoryText(steps: number): string {
  const messages: TrajectoryMessage[] = [
    { role: 'system', content: 'You are a root-cause analyst.' },
    { role: 'user', content: 'Find the root cause of the crash.' },
  ];
  for (let step = 1; step <= steps; step++) {
    messages.push({ role: 'assistant', content: `THOUGHT: look at part ${step}.\n\n\`\`\`bash\nsed -n ${step}p src/a.c\n\`\`\`` });
    messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\nline ${step};\n</output>` });
  }
  const model_calls = Array.from({ length: steps }, (_, index) => ({
    input: 1000 + index,
    output: 50,
    cache_read: 900,
    cache_write: 0,
    cost: 0.002,
    truncated: false,
  }));
  const commands = Array.from({ length: steps }, (_, index) => ({
    step: index + 1,
    command: `sed -n ${index + 1}p src/a.c`,
    returncode: 0,
    timed_out: false,
    output_chars: 8,
    by: 'model' as const,
  }));
  const trajectory = trajectoryOf(messages, {
    submission: GOOD_ANSWER,
    model_stats: { instance_cost: 0.002 * steps, api_calls: steps },
    config: { agent: {}, model: { model_name: 'openai/gpt-4.1' }, environment: { task_id: 'sample:1', context_id: 'ctx' } },
    tokens: { input: 1000 * steps, output: 50 * steps, cache_read: 900 * steps, cache_write: 0 },
    model_calls,
    commands,
  });
  return JSON.stringify(trajectory);
}

export interface TaskSpec {
  task: string;
  metrics?: TaskMetrics;
  /** The context id; its first 8 characters tag the task's log lines. */
  context?: string;
  steps?: number;
}

/** One assessment's record in `runDir`, each task with its files; the trajectories and logs sit where the agents keep them. */
export async function writeRecord(
  runDir: string,
  model: string,
  tasks: TaskSpec[],
  startedAt = new Date('2026-11-23T10:00:00Z'),
  settings: ScoringSettings = { TASK_TIMEOUT_S: 600 },
): Promise<RecordWriter> {
  const keys = tasks.map((spec) => spec.task);
  const writer = await RecordWriter.create(runDir, newAssessment(keys, { concurrency: 2, settings, settings_hash: 'abc123', model }), startedAt);
  for (const spec of tasks) {
    const { record, evidence } = await finishedTask(runDir, spec);
    await writer.writeTask(record, evidence, new Date(startedAt.getTime() + 60_000));
  }
  return writer;
}

/** A task as the green agent hands it to the record writer, its trajectory and log written where the agents keep them. */
export async function finishedTask(runDir: string, spec: TaskSpec): Promise<{ record: TaskRecordDraft; evidence: TaskEvidence }> {
  const context = spec.context ?? `${spec.task.replace(/\W/g, '').padEnd(8, '0')}-context`;
  const folder = spec.task.replace(':', '_');
  const trajectory = join(runDir, 'trajectories', `${folder}-${context}.traj.json`);
  await mkdir(join(runDir, 'trajectories'), { recursive: true });
  await writeFile(trajectory, trajectoryText(spec.steps ?? 3));
  const log = join(runDir, `${folder}.log`);
  await writeFile(log, `2026-11-23T10:00:01.000Z INFO  green  ${context.slice(0, 8)} [TaskContextService] preparing ${spec.task}\n`, { flag: 'a' });
  const metrics = spec.metrics ?? JUDGED_METRICS.good;
  const usage = { input_tokens: 3000, cache_read_tokens: 2700, cache_creation_tokens: 0, output_tokens: 150, est_usd_cost: 0.006, time_cost_sec: 12 };
  const record = taskDraft(
    spec.task,
    { ...metrics, ...usage, llm_requests: spec.steps ?? 3 },
    {
      context_id: context,
      finish_reason: metrics.status === 'failed' ? 'error' : 'finished',
      run: { seconds: 12.5, commands: 3, failed_commands: 0, attempts: 1 },
    },
  );
  return {
    record,
    evidence: {
      crashReport: `==1==ERROR: AddressSanitizer: heap-buffer-overflow in ${spec.task}`,
      fix: '--- a/src/a.c\n+++ b/src/a.c\n@@ -10,3 +10,4 @@\n-  len = n;\n+  if (n > max) return -1;\n+  len = n;\n',
      submission: metrics.status === 'failed' ? null : GOOD_ANSWER,
      sources: SOURCES,
      trajectory: { path: trajectory },
      log,
    },
  };
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A GET with the path exactly as written (`..` included), as a hostile client would send it. */
export function rawGet(base: string, path: string, method = 'GET'): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const call = request({ host: url.hostname, port: url.port, path, method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    call.on('error', reject);
    call.end();
  });
}
