// One Result from the Results of the shards of one assessment, as if one green agent had run the whole list.
import { aggregateResults, WHOLE_LIST, type AssessmentResult, type ResultInput, type TaskDraw, type TaskResult } from '@arvo-rca/results';
import { JudgeError } from './judge-error';

/**
 * Combines every shard's Result (shard i of n: tasks i, i + n, ... of the list) into the Result of the
 * whole list: tasks back in the list's order, means over all of them, each model's usage averaged over all
 * of them (a shard made before the Result kept each task's model gives its tasks none). The shards ran side by
 * side, so the time used is the longest shard's. Every shard drew the same tasks from the same list (or none
 * drew), and the whole keeps that draw. Throws SHARDS_MISMATCH unless the Results are shards 0 to n-1 of one
 * split, each once, of one draw.
 */
export function combineResults(results: readonly AssessmentResult[]): AssessmentResult {
  checkShards(results);
  const positioned = results.flatMap((result) =>
    recordsOf(result).map((record, order) => ({ record, position: order * result.shard.count + result.shard.index })),
  );
  positioned.sort((a, b) => a.position - b.position);
  const timeUsed = Math.max(0, ...results.map((result) => result.time_used));
  return aggregateResults(
    positioned.map(({ record }) => record),
    timeUsed,
    WHOLE_LIST,
    drawOf(results),
  );
}

/** The draw the shards share; a Result made before draws were kept has none. */
function drawOf(results: readonly AssessmentResult[]): TaskDraw | null {
  const draws = new Set(results.map((result) => JSON.stringify(result.draw ?? null)));
  if (draws.size > 1)
    throw new JudgeError('SHARDS_MISMATCH', 'the shards drew their tasks differently (another list or seed): they are not parts of one assessment');
  return results[0]?.draw ?? null;
}

function checkShards(results: readonly AssessmentResult[]): void {
  const count = results.length;
  const indices = results.map((result) => result.shard.index).sort((a, b) => a - b);
  const counts = new Set(results.map((result) => result.shard.count));
  const complete = indices.every((index, position) => index === position);
  if (count === 0 || counts.size !== 1 || !counts.has(count) || !complete) {
    const shards = results.map((result) => `${result.shard.index}/${result.shard.count}`).join(', ');
    throw new JudgeError('SHARDS_MISMATCH', `the Results are not the shards 0 to n-1 of one split, each once (got ${shards || 'none'})`);
  }
}

/** A Result's tasks as the Result reads records again, in its own order, with the green agent's figures where it had them. */
function recordsOf(result: AssessmentResult): ResultInput[] {
  const entries: TaskResult[] = Object.values(result.task_metrics);
  if (entries.length !== result.task_ids.length) {
    throw new JudgeError(
      'SHARDS_MISMATCH',
      `shard ${result.shard.index}/${result.shard.count} lists ${result.task_ids.length} task ids but has ${entries.length} records`,
    );
  }
  return entries.map((entry, order) => ({
    task_id: result.task_ids[order],
    masked_id: entry.masked_id,
    model: entry.model ?? null,
    metrics: entry,
    ...runOf(entry),
  }));
}

function runOf(entry: TaskResult): Pick<ResultInput, 'run'> {
  const { wall_time_sec: seconds, n_commands: commands, n_failed_commands: failed_commands, n_attempts: attempts } = entry;
  return seconds === null || commands === null || failed_commands === null ? {} : { run: { seconds, commands, failed_commands, attempts: attempts ?? 1 } };
}
