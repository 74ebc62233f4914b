import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAssessmentSaved, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { type AssessmentFile, RECORD_LOCK_FILE, RecordLayout } from '@arvo-rca/run-record';
import { ownerHost } from '@arvo-rca/sandbox';
import { greenStage, type GreenScene } from '../../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../../stage/solver-stand-in.testing';

const ANSWER = JSON.stringify({ reasoning: 'a guess', locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75 }] });
const SOLVING = callingBack([`cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF`]);

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

describeWithDocker('green agent, one resume of a record at a time', () => {
  const stage = greenStage('resume-lock');
  let send: GreenScene['assess'];
  let solver: SolverStandIn;

  beforeAll(async () => {
    ({ solver, assess: send } = await stage.start(SOLVING));
  });

  const resultOf = (events: PeerEvent[]): AssessmentResult | undefined =>
    (events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined)?.data[0];
  const recordOf = (events: PeerEvent[]): string => {
    const first = events.find((event) => event.kind === 'status' && parseAssessmentSaved(event.data));
    return parseAssessmentSaved((first as { data: unknown[] }).data)?.recordDir ?? '';
  };
  const forget = (recordDir: string, ...tasks: string[]): void => tasks.forEach((task) => unlinkSync(new RecordLayout(recordDir).taskFile(task)));

  it('runs the missing tasks once for two resumes sent at once: one runs them, the other is refused with the reason; then a resume is taken again', async () => {
    const recordDir = recordOf(await send({ task_ids: ['sample:1', 'sample:2', 'sample:3'] }));
    const { id } = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    forget(recordDir, 'sample:2', 'sample:3');
    solver.runs = [];

    const both = await Promise.all([send({ resume: id }), send({ resume: id })]);

    const ran = both.filter((events) => resultOf(events) !== undefined);
    const refused = both.filter((events) => resultOf(events) === undefined);
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(rejectionOf(refused[0])).toMatch(
      new RegExp(
        `^Resume refused, nothing was run: record ${recordDir} is being resumed by another assessment \\(started [\\dT:.-]+Z\\); send the resume again when it has finished$`,
      ),
    );
    // Each missing task reached the solver once, and the record holds one session more, not two.
    expect(solver.runs).toHaveLength(2);
    expect(resultOf(ran[0])).toMatchObject({ n_tasks: 3, n_scored: 3 });
    expect(readJson<AssessmentFile>(join(recordDir, 'assessment.json')).sessions).toHaveLength(2);
    expect(existsSync(join(recordDir, RECORD_LOCK_FILE))).toBe(false);

    forget(recordDir, 'sample:1');
    solver.runs = [];
    expect(resultOf(await send({ resume: id }))).toMatchObject({ n_tasks: 3, n_scored: 3 });
    expect(solver.runs).toHaveLength(1);
  }, 300_000);

  it('takes over a lock that a green process which died left behind', async () => {
    const recordDir = recordOf(await send({ task_ids: ['sample:1'] }));
    const { id } = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    forget(recordDir, 'sample:1');
    const dead = spawnSync('true').pid;
    const stale = { host: ownerHost(), pid: dead, started: null, since: new Date().toISOString(), kind: 'resume', nonce: 'dead' };
    writeFileSync(join(recordDir, RECORD_LOCK_FILE), JSON.stringify(stale));
    solver.runs = [];

    expect(resultOf(await send({ resume: id }))).toMatchObject({ n_tasks: 1, n_scored: 1 });
    expect(solver.runs).toHaveLength(1);
    expect(existsSync(join(recordDir, RECORD_LOCK_FILE))).toBe(false);
  }, 180_000);
});
