import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GroundTruthExtractor, type GroundTruth } from './ground-truth';
import { withSolverExit } from '@arvo-rca/results';
import { everyMetric, modifiedSpan, rootCauseNamed } from './metrics.testing';
import { failedTask, scoreReading, scoreSubmission } from './task-scoring';

const truth: GroundTruth = { project: 'proj', notes: [], spans: [modifiedSpan('src/a.c', 'f', 10, 19)] };
const zeros = everyMetric(0);
// The truth above has no root-cause field: its one span is its root cause too.
const rcZeros = { rc_n_gt: 1, ...rootCauseNamed(everyMetric(0)) };
/** The record of a task on that truth with no prediction: zero on both sets, with why. */
const zeroRecord = (status: string, detail: string): object => ({ status, detail, n_gt: 1, n_pred: 0, ...zeros, ...rcZeros });

describe('scoreSubmission', () => {
  it('scores a readable loc.json and passes on what the lenient reading overlooked', () => {
    const text = JSON.stringify([{ file: 'a.c', function: 'f', line_start: 10, line_end: 300 }, 'junk']);
    const record = scoreSubmission(text, truth);
    expect(record).toMatchObject({ status: 'scored', n_gt: 1, n_pred: 1, file_acc: 1, func_recall: 1 });
    // 10-300 is cut to 10-110: 10 shared lines of a union of 101.
    expect(record.line_iou).toBeCloseTo(10 / 101);
    expect(record.detail).toBe('locations[0] spans 291 lines, cut to 101; locations[1] skipped: not an object');
  });

  it('scores a missing loc.json as zero, saying so', () => {
    expect(scoreSubmission(null, truth)).toEqual(zeroRecord('no_submission', 'no loc.json was written'));
  });

  it('scores an unreadable loc.json as zero, with the reason', () => {
    const record = scoreSubmission('{"locations": ', truth);
    expect(record).toMatchObject({ status: 'invalid_submission', n_gt: 1, n_pred: 0, ...zeros });
    expect(record.detail).toMatch(/^loc.json is not JSON: /);
  });

  it('scores a loc.json that is there but could not be read as an invalid submission, saying why', () => {
    expect(scoreReading({ kind: 'refused', reason: 'it is a FIFO, not a regular file' }, truth)).toEqual(
      zeroRecord('invalid_submission', 'loc.json could not be read: it is a FIFO, not a regular file'),
    );
  });

  it('scores an empty list of locations as zero', () => {
    expect(scoreSubmission('{"locations": []}', truth)).toEqual(zeroRecord('scored', 'loc.json lists no location'));
  });

  it('reports a task without ground truth as such, with no score at all', () => {
    const record = scoreSubmission('[{"file": "a.c", "line": 1}]', { spans: [], project: null, notes: [] });
    expect(record).toEqual({
      status: 'no_ground_truth',
      detail: 'the fix changes no code file',
      n_gt: 0,
      n_pred: 1,
      ...everyMetric(null),
      rc_n_gt: 0,
      ...rootCauseNamed(everyMetric(null)),
    });
  });
});

describe('root-cause metrics', () => {
  const withTest: GroundTruth = {
    ...truth,
    spans: [...truth.spans, { file: 'tests/test_a.c', function: 'test_f', vulSpan: { start: 3, end: 8 }, fixSpan: { start: 3, end: 20 }, change: 'modified' }],
    rootCause: truth.spans,
  };
  const onlyTests: GroundTruth = { ...withTest, rootCause: [] };
  const rcNulls = rootCauseNamed(everyMetric(null));
  const fixedFunction = '[{"file": "src/a.c", "function": "f", "line_start": 10, "line_end": 19}]';

  it('scores the root-cause spans beside all of them: full marks for the fixed function alone, half for the original', () => {
    const record = scoreSubmission(fixedFunction, withTest);

    expect(record).toMatchObject({ n_gt: 2, file_acc: 0.5, func_recall: 0.5, func_precision: 1, line_iou: 0.5 });
    expect(record).toMatchObject({ rc_n_gt: 1, rc_file_acc: 1, rc_func_recall: 1, rc_func_precision: 1, rc_line_iou: 1, rc_line_proximity: 1 });
    expect(record.rc_func_topk_recall).toEqual({ '1': 1, '3': 1, '5': 1 });
  });

  it('leaves them null when the fix changes only tests, harnesses and new files, and scores the original as ever', () => {
    const record = scoreSubmission(fixedFunction, onlyTests);

    expect(record).toEqual({ ...scoreSubmission(fixedFunction, withTest), rc_n_gt: 0, ...rcNulls });
    expect(scoreSubmission(null, onlyTests)).toMatchObject({ status: 'no_submission', file_acc: 0, rc_n_gt: 0, ...rcNulls });
    expect(failedTask('no image', onlyTests)).toMatchObject({ status: 'failed', n_gt: 2, file_acc: 0, rc_n_gt: 0, ...rcNulls });
  });

  it('counts a task that broke before its ground truth was known as zero on both sets', () => {
    expect(failedTask('the task archive could not be read')).toMatchObject({ n_gt: 0, file_acc: 0, rc_n_gt: 0, rc_file_acc: 0, rc_line_iou: 0 });
  });
});

describe('failedTask', () => {
  it('records a broken task as zero with its reason', () => {
    expect(failedTask('image n132/arvo:1-vul could not be pulled', truth)).toEqual(zeroRecord('failed', 'image n132/arvo:1-vul could not be pulled'));
  });

  it("keeps the error's code and the image it was about right after the reason, as the Result shows them", () => {
    const image = 'registry.local:5000/arvo:1-vul';
    const record = failedTask(`pulling ${image} failed`, truth, { error_code: 'IMAGE_PULL_FAILED', image });

    expect(record).toEqual({ ...zeroRecord('failed', `pulling ${image} failed`), error_code: 'IMAGE_PULL_FAILED', image });
    expect(Object.keys(record).slice(0, 4)).toEqual(['status', 'detail', 'error_code', 'image']);
    expect(Object.keys(failedTask('the engine did not answer', truth, { error_code: 'ENGINE_UNAVAILABLE' }))).not.toContain('image');
  });
});

describe('withSolverExit', () => {
  it('keeps what the solver said of its run beside the record, and adds nothing when it said nothing', () => {
    const record = scoreSubmission(null, truth);

    expect(withSolverExit(record, { exitStatus: 'ModelError', reason: 'the model failed (401)' })).toEqual({
      ...record,
      solver_exit_status: 'ModelError',
      solver_reason: 'the model failed (401)',
    });
    expect(withSolverExit(record, { exitStatus: 'Submitted' })).toEqual({ ...record, solver_exit_status: 'Submitted' });
    expect(withSolverExit(record, undefined)).toBe(record);
  });

  it("keeps the solver's usage under CyberGym's names, and nothing else the report carried", () => {
    const record = scoreSubmission(null, truth);
    const usage = {
      input_tokens: 1200,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      output_tokens: 300,
      est_usd_cost: 0.0123,
      time_cost_sec: 12.5,
      llm_requests: 4,
    };

    const report = { ...usage, model: 'x' };

    expect(withSolverExit(record, { exitStatus: 'Submitted', usage: report })).toEqual({
      ...record,
      solver_exit_status: 'Submitted',
      ...usage,
    });
  });
});

describe('scoring a bundled sample end to end', () => {
  it('scores a crash-site guess and a root-cause guess on sample 1 as worked out by hand', async () => {
    const dir = join(__dirname, '../../../../samples/1');
    const extractor = await GroundTruthExtractor.create();
    const sampleTruth = await extractor.fromPatch(await readFile(join(dir, 'patch.diff'), 'utf8'), join(dir, 'source'));
    const submission = JSON.stringify({
      reasoning: 'the index trusts a record length',
      locations: [
        { file: '/workspace/src-vul/tlvkit/src/cursor.c', function: 'tlv_cursor_be32', line_start: 30, line_end: 40 },
        { file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 73 },
      ],
    });
    const record = scoreSubmission(submission, sampleTruth);
    // The fix's hunk is 64-70 on both sides. 60-73 holds all 7 of its lines in a union of 14: IoU 1/2.
    // Centres 66.5 and 67, mean length (14 + 7) / 2 = 10.5: proximity exp(-(0.5 / 10.5) / 2).
    const metrics = {
      file_acc: 1,
      func_recall: 1,
      func_precision: 1 / 2,
      line_iou: 1 / 2,
      line_proximity: expect.closeTo(Math.exp(-1 / 42), 12),
      func_topk_recall: { '1': 0, '3': 1, '5': 1 },
      line_topk_recall: { '1': 0, '3': 1, '5': 1 },
    };
    // The fix changes index_span alone: its root cause is the whole of it, scored the same.
    expect(record).toEqual({ status: 'scored', n_gt: 1, n_pred: 2, ...metrics, rc_n_gt: 1, ...rootCauseNamed(metrics) });
  });
});
