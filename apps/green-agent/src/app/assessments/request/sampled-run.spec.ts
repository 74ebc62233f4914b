import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parseAssessmentSaved, parseTaskProgressLines, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { combineResults } from '@arvo-rca/rca-eval';
import type { AssessmentResult, TaskDraw } from '@arvo-rca/results';
import { RecordLayout, type AssessmentFile } from '@arvo-rca/run-record';
import { greenStage, type GreenScene } from '../../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../../stage/solver-stand-in.testing';

// Every task is answered alike: the answer is beside the point here, which tasks ran is.
const SOLVING = callingBack(['echo \'{"reasoning": "", "locations": []}\' > /workspace/shared/loc.json']);
// The first three of the bundled samples drawn with seed 7, as an implementation of the documented draw in
// another language (Python integers) draws them; a draw of fewer is their head.
const SAMPLES_SEED_7 = ['sample:3', 'sample:4', 'sample:5'];

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

describeWithDocker('green agent, an assessment drawn from a task list', () => {
  const stage = greenStage('sampled');
  let send: GreenScene['assess'];
  let solver: SolverStandIn;

  beforeAll(async () => {
    ({ solver, assess: send } = await stage.start(SOLVING));
  });

  const resultOf = (events: PeerEvent[]): AssessmentResult => (events.find((event) => event.kind === 'artifact') as { data: AssessmentResult[] }).data[0];
  const recordOf = (events: PeerEvent[]): string => {
    const saved = events.find((event) => event.kind === 'status' && parseAssessmentSaved(event.data));
    return parseAssessmentSaved((saved as { data: unknown[] }).data)?.recordDir ?? '';
  };
  const assessmentOf = (events: PeerEvent[]): AssessmentFile => readJson<AssessmentFile>(join(recordOf(events), 'assessment.json'));
  const startedTasks = (events: PeerEvent[]): string[] =>
    events.flatMap((event) => {
      const lines = event.kind === 'status' ? parseTaskProgressLines(event.data) : [];
      return lines.flatMap((line) => (line.kind === 'started' ? [line.task] : []));
    });

  it('runs num_tasks drawn from a named list with the seed, and keeps the seed and the drawn list in the record and the Result', async () => {
    const drawn = await send({ task_ids_file: 'samples', num_tasks: 2, seed: 7 });

    const draw: TaskDraw = { list: 'samples', list_size: 5, seed: 7, task_ids: SAMPLES_SEED_7.slice(0, 2) };
    const first = drawn.find((event) => event.kind === 'status');
    expect(first).toMatchObject({ text: expect.stringMatching(/^assessment of 2 tasks \(2 drawn from samples of 5 with seed 7\) with /) });
    expect(startedTasks(drawn)).toEqual(draw.task_ids);
    expect(assessmentOf(drawn)).toMatchObject({ tasks: draw.task_ids, draw });
    expect(resultOf(drawn)).toMatchObject({ task_ids: draw.task_ids, draw });
    expect(readJson(join(recordOf(drawn), 'result.json'))).toEqual(resultOf(drawn));
  }, 300_000);

  it('runs on a resume the tasks the record drew, drawing nothing, and its Result keeps the draw', async () => {
    const recordDir = recordOf(await send({ task_ids_file: 'samples', num_tasks: 2, seed: 7 }));
    const before = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    unlinkSync(new RecordLayout(recordDir).taskFile('sample:4'));

    const resumed = await send({ resume: before.id });

    expect(startedTasks(resumed)).toEqual(['sample:4']);
    const after = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    expect({ tasks: after.tasks, draw: after.draw }).toEqual({ tasks: before.tasks, draw: before.draw });
    expect(after.sessions).toHaveLength(2);
    expect(resultOf(resumed)).toMatchObject({ task_ids: before.tasks, draw: before.draw });
  }, 300_000);

  it('draws and records a seed when none is given, which runs the same tasks again', async () => {
    const unseeded = await send({ task_ids_file: 'samples', num_tasks: 1 });
    const { draw } = assessmentOf(unseeded);
    expect(draw).toEqual({ list: 'samples', list_size: 5, seed: expect.any(Number), task_ids: [expect.stringMatching(/^sample:[1-5]$/)] });

    const seeded = await send({ task_ids_file: 'samples', num_tasks: 1, seed: draw?.seed });

    expect(assessmentOf(seeded).draw).toEqual(draw);
    expect(startedTasks(seeded)).toEqual(draw?.task_ids);
  }, 300_000);

  it('gives the shards of one seed the parts of one drawn list, and their Results combine into the whole draw', async () => {
    const config = { task_ids_file: 'samples', num_tasks: 3, seed: 7, num_shards: 2 };

    const shards = [await send({ ...config, shard_index: 0 }), await send({ ...config, shard_index: 1 })];

    const [zero, one] = shards.map(assessmentOf);
    expect(zero.draw).toEqual({ list: 'samples', list_size: 5, seed: 7, task_ids: SAMPLES_SEED_7 });
    expect(one.draw).toEqual(zero.draw);
    expect([zero.tasks, one.tasks]).toEqual([['sample:3', 'sample:5'], ['sample:4']]);
    const whole = combineResults(shards.map(resultOf));
    expect(whole).toMatchObject({ task_ids: SAMPLES_SEED_7, draw: zero.draw, n_tasks: 3 });
  }, 300_000);

  it('refuses a request naming every problem of its list and draw, and runs nothing', async () => {
    solver.runs = [];

    const bad = rejectionOf(await send({ task_ids_file: 'rcabench-2000', num_tasks: 0, seed: 'seven', sample: 'first' }));
    // The original's path of its 181 clean tasks reads our copy of that list.
    const tooMany = rejectionOf(await send({ task_ids_file: 'data/successful_task_ids.txt', num_tasks: 500 }));
    const unseeded = rejectionOf(await send({ task_ids_file: 'samples', num_tasks: 2, shard_index: 0, num_shards: 2 }));

    expect(bad.split('\n')).toEqual([
      'Invalid assessment request, nothing was started:',
      '- config.num_tasks must be at least 1',
      '- config.seed must be a whole number from 0 to 4294967295',
      '- config.sample must be one of random, head',
      '- config.task_ids_file: there is no task list named "rcabench-2000" (known lists: rcabench-1000, rcabench-clean-181, samples; a file is named by a path such as ./my-list.txt)',
    ]);
    expect(tooMany).toContain('- config.num_tasks (500) is larger than the list, which holds 181 tasks');
    expect(unseeded).toContain('- config.seed must be given when config.num_tasks tasks are drawn for 2 shards');
    expect(solver.runs).toEqual([]);
  }, 60_000);
});
