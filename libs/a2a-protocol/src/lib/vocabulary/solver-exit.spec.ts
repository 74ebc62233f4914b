import { MAX_TRAJECTORY_CHARS, TRAJECTORY_FORMAT } from '@arvo-rca/common';
import { trajectoryOf } from '@arvo-rca/common/testing';
import { formatSolverExit, MAX_EXIT_REASON_CHARS, parseSolverExit, type SolverUsage } from './solver-exit';

const USAGE: SolverUsage = {
  input_tokens: 1200,
  output_tokens: 300,
  cache_read_tokens: 800,
  cache_creation_tokens: 100,
  est_usd_cost: 0.0123,
  llm_requests: 4,
  time_cost_sec: 12.5,
};

describe('solver exits', () => {
  it('travel as {exit_status, reason} and read back as they were sent', () => {
    const exit = { exitStatus: 'ModelError', reason: 'the model failed (401): invalid api key' };

    expect(formatSolverExit(exit)).toEqual({ exit_status: 'ModelError', reason: 'the model failed (401): invalid api key' });
    expect(parseSolverExit([formatSolverExit(exit)])).toEqual(exit);
    expect(parseSolverExit([formatSolverExit({ exitStatus: 'Submitted' })])).toEqual({ exitStatus: 'Submitted' });
  });

  it('are found among other data parts, and are absent when no part is one', () => {
    expect(parseSolverExit([{ usage: 3 }, 'text', null, [1], { exit_status: 'TimeExceeded', reason: 'wall-time limit reached' }])).toEqual({
      exitStatus: 'TimeExceeded',
      reason: 'wall-time limit reached',
    });
    expect(parseSolverExit([{ usage: 3 }])).toBeUndefined();
    expect(parseSolverExit([])).toBeUndefined();
  });

  it('take a status only when it is one word, and a reason only when it is text', () => {
    expect(parseSolverExit([{ exit_status: 'two words' }])).toBeUndefined();
    expect(parseSolverExit([{ exit_status: 7 }])).toBeUndefined();
    expect(parseSolverExit([{ exit_status: 'x'.repeat(65) }])).toBeUndefined();
    expect(parseSolverExit([{ exit_status: 'FormatError', reason: { why: 'no' } }])).toEqual({ exitStatus: 'FormatError' });
    expect(parseSolverExit([{ exit_status: 'FormatError', reason: '  ' }])).toEqual({ exitStatus: 'FormatError' });
  });

  it('cut a reason too long for a task record', () => {
    const exit = parseSolverExit([{ exit_status: 'EnvironmentError', reason: 'r'.repeat(1_000_000) }]);

    expect(exit?.reason).toHaveLength(MAX_EXIT_REASON_CHARS + 1);
    expect(exit?.reason?.endsWith('…')).toBe(true);
  });

  it("carry the run's usage under CyberGym's names, and read it back only when every figure is a number at or above zero", () => {
    const sent = formatSolverExit({ exitStatus: 'Submitted', usage: USAGE });

    expect(sent).toEqual({ exit_status: 'Submitted', usage: USAGE });
    expect(parseSolverExit([JSON.parse(JSON.stringify(sent))])).toEqual({ exitStatus: 'Submitted', usage: USAGE });
    expect(parseSolverExit([{ exit_status: 'Submitted', usage: { ...USAGE, output_tokens: -1 } }])).toEqual({ exitStatus: 'Submitted' });
    expect(parseSolverExit([{ exit_status: 'Submitted', usage: { ...USAGE, llm_requests: '4' } }])).toEqual({ exitStatus: 'Submitted' });
    const { time_cost_sec: _dropped, ...partial } = USAGE;
    expect(parseSolverExit([{ exit_status: 'Submitted', usage: partial }])).toEqual({ exitStatus: 'Submitted' });
  });

  it('carry an unknown cost as null, and read it back as null; no other figure may be null', () => {
    const unpriced = { ...USAGE, est_usd_cost: null };
    const sent = JSON.parse(JSON.stringify(formatSolverExit({ exitStatus: 'Submitted', usage: unpriced })));

    expect(sent).toEqual({ exit_status: 'Submitted', usage: unpriced });
    expect(parseSolverExit([sent])).toEqual({ exitStatus: 'Submitted', usage: unpriced });
    expect(parseSolverExit([{ exit_status: 'Submitted', usage: { ...USAGE, input_tokens: null } }])).toEqual({ exitStatus: 'Submitted' });
  });

  it('carry the trajectory, where the solver wrote it and the document itself, and read both back', () => {
    const exit = { exitStatus: 'Submitted', trajectory: { path: '/runs/log_x/trajectories/task_1-c.traj.json', document: trajectoryOf('a reply') } };
    const sent = formatSolverExit(exit);

    expect(sent).toMatchObject({ trajectory: exit.trajectory.path, trajectory_document: { trajectory_format: TRAJECTORY_FORMAT } });
    expect(parseSolverExit([JSON.parse(JSON.stringify(sent))])).toEqual(exit);
    expect(parseSolverExit([{ exit_status: 'Submitted', trajectory: '/only/a/path.traj.json' }])).toEqual({
      exitStatus: 'Submitted',
      trajectory: { path: '/only/a/path.traj.json' },
    });
  });

  it('leave out a trajectory that is not one, or is larger than a run record keeps', () => {
    const huge = trajectoryOf('x'.repeat(MAX_TRAJECTORY_CHARS));

    expect(formatSolverExit({ exitStatus: 'Submitted', trajectory: { document: huge } })).toEqual({ exit_status: 'Submitted' });
    expect(parseSolverExit([{ exit_status: 'Submitted', trajectory_document: huge }])).toEqual({ exitStatus: 'Submitted' });
    expect(parseSolverExit([{ exit_status: 'Submitted', trajectory_document: { trajectory_format: 'other', info: {}, messages: [] } }])).toEqual({
      exitStatus: 'Submitted',
    });
    expect(parseSolverExit([{ exit_status: 'Submitted', trajectory_document: [TRAJECTORY_FORMAT] }])).toEqual({ exitStatus: 'Submitted' });
  });
});
