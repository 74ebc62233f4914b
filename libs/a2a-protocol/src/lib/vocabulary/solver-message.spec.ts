import { formatExecute, parseSolverMessage, TASK_FINISHED } from './solver-message';

describe('solver messages', () => {
  it('takes everything after the first `execute:` as the command, across lines', () => {
    expect(parseSolverMessage('execute: ls /workspace/src-vul')).toEqual({ kind: 'execute', command: 'ls /workspace/src-vul' });
    expect(parseSolverMessage('I will look.\nexecute: cat <<EOF\nexecute: not a second command\nEOF\n')).toEqual({
      kind: 'execute',
      command: 'cat <<EOF\nexecute: not a second command\nEOF',
    });
  });

  it('reports an empty command as such, for the green agent to reject', () => {
    expect(parseSolverMessage('execute:   ')).toEqual({ kind: 'execute', command: '' });
  });

  it('recognises the end of the task', () => {
    expect(parseSolverMessage(TASK_FINISHED)).toEqual({ kind: 'finished' });
    expect(parseSolverMessage('loc.json is written. [TASK FINISHED]')).toEqual({ kind: 'finished' });
  });

  it('lets the earlier marker win when a message holds both', () => {
    expect(parseSolverMessage('execute: echo [TASK FINISHED]')).toEqual({ kind: 'execute', command: 'echo [TASK FINISHED]' });
    expect(parseSolverMessage('[TASK FINISHED] no more execute: commands')).toEqual({ kind: 'finished' });
  });

  it('passes anything else on as chatter', () => {
    expect(parseSolverMessage('Execute: ls')).toEqual({ kind: 'other', text: 'Execute: ls' });
  });

  it('formats a command so that it parses back', () => {
    expect(formatExecute('grep -rn foo src')).toBe('execute: grep -rn foo src');
    expect(parseSolverMessage(formatExecute('grep -rn foo src'))).toEqual({ kind: 'execute', command: 'grep -rn foo src' });
  });
});
