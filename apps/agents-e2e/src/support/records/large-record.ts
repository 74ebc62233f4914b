import pLimit from 'p-limit';
import type { Trajectory, TrajectoryMessage } from '@arvo-rca/common';
import { trajectoryOf } from '@arvo-rca/common/testing';
import { scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { RecordWriter, taskFolderName, type AssessmentFile, type TaskEvidence } from '@arvo-rca/run-record';

const WRITES_AT_ONCE = 16;

// Every task's fix: one function of one file; every answer names it.
const TRUTH: GroundTruth = {
  spans: [{ file: 'src/decode.c', function: 'decode_dict', vulSpan: { start: 158, end: 163 }, fixSpan: { start: 158, end: 164 }, change: 'modified' }],
  project: 'large',
  notes: [],
};
const ANSWER = JSON.stringify({
  reasoning: 'the dictionary length is read before it is checked',
  locations: [{ file: 'src/decode.c', function: 'decode_dict', line_start: 150, line_end: 165, description: 'unchecked length' }],
});
const CRASH = `==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011\nREAD of size 1 at 0x602000000011 thread T0\n${Array.from(
  { length: 40 },
  (_, frame) => `    #${frame} 0x4f${frame.toString(16).padStart(4, '0')} in decode_frame_${frame} /src/large/src/decode.c:${150 + frame}:7`,
).join('\n')}\n`;
const FIX = `--- a/src/decode.c\n+++ b/src/decode.c\n@@ -158,6 +158,7 @@ static int decode_dict(struct reader *r)\n${'   context line of the function\n'.repeat(60)}`;

/**
 * A finished run record of `count` tasks in `runDir`, as a long run leaves it, written by RecordWriter as a
 * green agent writes it: each task's folder with its crash report, fix, answer, source excerpt and a trajectory
 * of about `trajectoryChars` characters. Begun under `header`, a record that green agent made itself (its solver
 * and settings), so that it resumes this one.
 */
export async function writeLargeRecord(runDir: string, header: AssessmentFile, count: number, trajectoryChars: number): Promise<RecordWriter> {
  const taskIds = Array.from({ length: count }, (_, index) => `arvo:${10_000 + index}`);
  const { concurrency, shard, assessor, solver, solver_protocol, settings, settings_hash } = header;
  const writer = await RecordWriter.create(runDir, { tasks: taskIds, concurrency, shard, assessor, solver, solver_protocol, settings, settings_hash });
  const metrics = scoreSubmission(ANSWER, TRUTH);
  const limit = pLimit(WRITES_AT_ONCE);
  await Promise.all(taskIds.map((taskId) => limit(() => writer.writeTask(draftOf(taskId, metrics), evidenceOf(taskId, trajectoryChars)))));
  await writer.endSession();
  return writer;
}

function draftOf(taskId: string, metrics: TaskRecordDraft['metrics']): TaskRecordDraft {
  return taskDraft(taskId, metrics, { context_id: `large-${taskFolderName(taskId)}`, run: { seconds: 312.4, commands: 41, failed_commands: 6, attempts: 1 } });
}

function evidenceOf(taskId: string, trajectoryChars: number): TaskEvidence {
  const lines = Array.from({ length: 40 }, (_, index) => `  if (r->len < ${index}) return decode_error(r, ${index});`);
  return {
    crashReport: CRASH,
    fix: FIX,
    submission: ANSWER,
    sources: [{ path: 'src/decode.c', start: 140, lines, fix: [{ start: 158, end: 163 }], predicted: [{ start: 150, end: 165, rank: 1 }] }],
    trajectory: { document: largeTrajectory(taskId, trajectoryChars) },
    log: null,
  };
}

/** A solver's trajectory of about `chars` characters: turns of thought and command, and the commands' outputs. */
function largeTrajectory(taskId: string, chars: number): Trajectory {
  const messages: TrajectoryMessage[] = [{ role: 'system', content: 'You are a root-cause analyst.' }];
  const output = `<returncode>0</returncode>\n<output>\n${'src/decode.c:158:  len = read_u32(r); /* no bound on len */\n'.repeat(40)}</output>`;
  for (let step = 0, size = 0; size < chars; step += 1) {
    const turn: TrajectoryMessage[] = [
      {
        role: 'assistant',
        content: `THOUGHT: step ${step} of ${taskId}: the crash reads past the dictionary.\n\n\`\`\`bash\ngrep -n len src/decode.c\n\`\`\``,
      },
      { role: 'user', content: output },
    ];
    messages.push(...turn);
    size += turn.reduce((total, message) => total + message.content.length + 40, 0);
  }
  return trajectoryOf(messages, {
    submission: ANSWER,
    model_stats: { instance_cost: 0.42, api_calls: messages.length / 2 },
    config: { agent: {}, model: { model_name: 'baseline' }, environment: { task_id: taskId, context_id: `large-${taskFolderName(taskId)}` } },
    tokens: { input: 120_000, output: 4_000, cache_read: 90_000, cache_write: 20_000 },
  });
}
