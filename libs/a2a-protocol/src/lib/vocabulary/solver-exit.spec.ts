import { formatSolverExit, MAX_EXIT_REASON_CHARS, parseSolverExit } from './solver-exit';

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
});
