// Spreading one task list over several green agents, each with its own Docker engine: green i runs shard i
// of n (tasks i, i + n, ... of the list, as shard_index and num_shards split an assessment, which a
// leaderboard's CI writes into its config), and the shards' Results become one.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { combineResults } from '@arvo-rca/rca-eval';
import type { AssessmentRequestBody, TaskConfigBody } from '@arvo-rca/a2a-protocol';
import type { AssessmentResult } from '@arvo-rca/results';

export interface ShardRequest {
  green: string;
  request: AssessmentRequestBody;
}

/** What one green agent returned: its shard's Result, where it saved it and the folder of its run record, on its own machine. */
export interface ShardReport {
  green: string;
  result: AssessmentResult;
  file?: string;
  recordDir?: string;
}

/**
 * One request per green agent, each the same but for its shard (the same list, num_tasks and seed: each
 * green draws the same tasks and runs its part); a single green gets the request without shard keys. A
 * green agent that `sendsRecord` is asked for its record's files.
 */
export function shardRequests(
  greens: readonly string[],
  purple: string,
  tasks: TaskConfigBody,
  concurrency: number,
  sendsRecord: (green: string) => boolean = () => false,
): ShardRequest[] {
  return greens.map((green, index) => ({
    green,
    request: {
      participants: { purple_agent: purple },
      config: {
        ...tasks,
        concurrency,
        ...(greens.length > 1 ? { shard_index: index, num_shards: greens.length } : {}),
        ...(sendsRecord(green) ? { send_record: true } : {}),
      },
    },
  }));
}

/** The Result of the whole list from the shards' Results, whatever order they came back in. */
export function combineShardReports(reports: readonly ShardReport[]): AssessmentResult {
  return combineResults(reports.map((report) => report.result));
}

/** Saves the combined Result beside the run's logs: `<runDir>/results/assessment-<time>-combined.json`. */
export async function saveCombinedResult(result: AssessmentResult, runDir: string, now = new Date()): Promise<string> {
  const dir = join(runDir, 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `assessment-${now.toISOString().replace(/[:.]/g, '-')}-combined.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
