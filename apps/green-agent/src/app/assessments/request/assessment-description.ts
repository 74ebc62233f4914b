import type { AssessmentRequest } from './assessment-request';

/**
 * The first status line of an assessment: what runs, on which shard, how its tasks were drawn, and the
 * config keys it does not use (named, never dropped silently), e.g. `assessment of 3 tasks (shard 1 of 2;
 * 6 drawn from rcabench-clean-181 of 181 with seed 7) with http://purple:9019/, 2 at a time; ignoring
 * config keys: timeout, max_turns`.
 */
export function describeAssessment(request: AssessmentRequest): string {
  const { tasks, shard, purpleUrl, concurrency, ignoredConfigKeys, draw } = request;
  const notes = [
    shard.count > 1 ? `shard ${shard.index} of ${shard.count}` : '',
    draw ? `${draw.task_ids.length} drawn from ${draw.list ?? 'task_ids'} of ${draw.list_size} with seed ${draw.seed}` : '',
  ].filter(Boolean);
  const which = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const ignored = ignoredConfigKeys.length > 0 ? `; ignoring config keys: ${ignoredConfigKeys.join(', ')}` : '';
  return `assessment of ${tasks.length} tasks${which} with ${purpleUrl}, ${concurrency} at a time${ignored}`;
}
