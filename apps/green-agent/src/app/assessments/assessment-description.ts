import type { AssessmentRequest } from './assessment-request';

/**
 * The first status line of an assessment: what runs, on which shard, and the config keys it does not use
 * (named, never dropped silently), e.g. `assessment of 3 tasks (shard 1 of 2) with http://purple:9019/, 2 at
 * a time; ignoring config keys: timeout, assessment_config.seed`.
 */
export function describeAssessment(request: AssessmentRequest): string {
  const { tasks, shard, purpleUrl, concurrency, ignoredConfigKeys } = request;
  const which = shard.count > 1 ? ` (shard ${shard.index} of ${shard.count})` : '';
  const ignored = ignoredConfigKeys.length > 0 ? `; ignoring config keys: ${ignoredConfigKeys.join(', ')}` : '';
  return `assessment of ${tasks.length} tasks${which} with ${purpleUrl}, ${concurrency} at a time${ignored}`;
}
