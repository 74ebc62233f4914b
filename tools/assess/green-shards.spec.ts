import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedTask } from '@arvo-rca/rca-eval';
import { aggregateResults, type AssessmentResult } from '@arvo-rca/results';
import { combineShardReports, saveCombinedResult, shardRequests, type ShardReport } from './green-shards';

const TASKS = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
const PURPLE = 'http://purple:9019/';

/** What a green agent running `request`'s shard returns: every task failed, the green's figures present. */
function greenResult(tasks: string[], index: number, count: number, seconds: number): AssessmentResult {
  const mine = tasks.filter((_, position) => position % count === index);
  const records = mine.map((taskId) => ({
    task_id: taskId,
    metrics: failedTask(`${taskId} failed`),
    run: { seconds, commands: 1, failed_commands: 0, attempts: 1 },
  }));
  return aggregateResults(records, seconds, { index, count });
}

describe('spreading a task list over several green agents', () => {
  it('sends each green agent the same list and concurrency, with its own shard of n', () => {
    const requests = shardRequests(['http://a:9009/', 'http://b:9009/'], PURPLE, { task_ids: TASKS }, 2);

    expect(requests).toEqual([
      {
        green: 'http://a:9009/',
        request: { participants: { purple_agent: PURPLE }, config: { task_ids: TASKS, concurrency: 2, shard_index: 0, num_shards: 2 } },
      },
      {
        green: 'http://b:9009/',
        request: { participants: { purple_agent: PURPLE }, config: { task_ids: TASKS, concurrency: 2, shard_index: 1, num_shards: 2 } },
      },
    ]);
  });

  it('sends each green agent the same named list, num_tasks and seed, so that each draws the same tasks', () => {
    const drawn = { task_ids_file: 'rcabench-clean-181', num_tasks: 20, seed: 7 };

    const requests = shardRequests(['http://a:9009/', 'http://b:9009/', 'http://c:9009/'], PURPLE, drawn, 1);

    expect(requests.map(({ request }) => request.config)).toEqual([0, 1, 2].map((index) => ({ ...drawn, concurrency: 1, shard_index: index, num_shards: 3 })));
  });

  it('sends a single green agent the plain request', () => {
    expect(shardRequests(['http://a:9009/'], PURPLE, { task_ids: TASKS }, 1)).toEqual([
      { green: 'http://a:9009/', request: { participants: { purple_agent: PURPLE }, config: { task_ids: TASKS, concurrency: 1 } } },
    ]);
  });

  it("asks for the record's files only the green agents that send them", () => {
    const requests = shardRequests(['http://a:9009/', 'http://b:9009/'], PURPLE, { task_ids: TASKS }, 1, (green) => green === 'http://b:9009/');

    expect(requests.map(({ request }) => request.config)).toEqual([
      { task_ids: TASKS, concurrency: 1, shard_index: 0, num_shards: 2 },
      { task_ids: TASKS, concurrency: 1, shard_index: 1, num_shards: 2, send_record: true },
    ]);
  });

  it("combines the shards' Results into one over the whole list, in the list's order, whichever green answered first", () => {
    const reports: ShardReport[] = [
      { green: 'http://b:9009/', result: greenResult(TASKS, 1, 2, 30), file: '/b/results/assessment-1.json' },
      { green: 'http://a:9009/', result: greenResult(TASKS, 0, 2, 20), file: '/a/results/assessment-1.json' },
    ];

    const combined = combineShardReports(reports);

    expect(combined).toMatchObject({ shard: { index: 0, count: 1 }, task_ids: TASKS, n_tasks: 5, time_used: 30 });
    expect(Object.keys(combined.task_metrics)).toEqual(TASKS);
    expect(combined.task_metrics['sample:4']).toMatchObject({ status: 'failed', detail: 'sample:4 failed', n_commands: 1 });
  });

  it('refuses to combine when a shard is missing', () => {
    expect(() => combineShardReports([{ green: 'http://a:9009/', result: greenResult(TASKS, 0, 2, 20) }])).toThrow(/shards 0 to n-1/);
  });

  it('writes the combined Result into the run directory', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'assess-'));
    try {
      const combined = combineShardReports([{ green: 'http://a:9009/', result: greenResult(TASKS, 0, 1, 5) }]);

      const file = await saveCombinedResult(combined, runDir, new Date('2026-11-23T20:00:00Z'));

      expect(file).toBe(join(runDir, 'results', 'assessment-2026-11-23T20-00-00-000Z-combined.json'));
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(combined);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});
