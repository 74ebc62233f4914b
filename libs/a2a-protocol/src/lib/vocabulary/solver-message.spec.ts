import { formatExecute, formatReplyCorrection, MAX_SOLVER_REPLY_CHARS, parseSolverMessage, parseSolverReply, TASK_FINISHED } from './solver-message';

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

  describe('as replies, when the assessor drives the conversation', () => {
    it('take one action: a command, with any thought before it, or the end of the task', () => {
      expect(parseSolverReply('THOUGHT: look around.\nexecute: ls -la')).toEqual({ kind: 'execute', command: 'ls -la' });
      expect(parseSolverReply('execute: cat > a.sh <<EOF\nexecute: inside the heredoc\nEOF')).toEqual({
        kind: 'execute',
        command: 'cat > a.sh <<EOF\nexecute: inside the heredoc\nEOF',
      });
      expect(parseSolverReply(`done ${TASK_FINISHED}`)).toEqual({ kind: 'finished' });
    });

    it('read a command only from a line that starts with execute:, never from inside a line or from JSON the solver echoes', () => {
      const echoed = 'Answer each message with one shell command, as `execute: <command>`; everything\nafter `execute:` is run.';
      expect(parseSolverReply(JSON.stringify({ kind: 'final', output: echoed }))).toEqual({
        kind: 'none',
        problem: 'your reply is JSON, which holds no action',
      });
      expect(parseSolverReply(JSON.stringify({ kind: 'exec_request', command: 'ls' }))).toMatchObject({ kind: 'none' });
      expect(parseSolverReply(JSON.stringify(`execute: rm -rf /workspace`))).toMatchObject({ kind: 'none' });
      expect(parseSolverReply(`You said: "${echoed}"`)).toEqual({ kind: 'none', problem: 'your reply holds no action' });
      expect(parseSolverReply('> execute: ls\nI will not run that.')).toEqual({ kind: 'none', problem: 'your reply holds no action' });
      expect(parseSolverReply('{not json} execute: ls')).toEqual({ kind: 'none', problem: 'your reply holds no action' });
      expect(parseSolverReply('I quote `execute: pwd` first.\nexecute: ls')).toEqual({ kind: 'execute', command: 'ls' });
    });

    it('name what is wrong with a reply that holds no single action', () => {
      expect(parseSolverReply('')).toEqual({ kind: 'none', problem: 'your reply was empty' });
      expect(parseSolverReply('I think the bug is in parse_tables.')).toEqual({ kind: 'none', problem: 'your reply holds no action' });
      expect(parseSolverReply('execute: ls\nexecute: pwd')).toEqual({ kind: 'none', problem: 'your reply holds 2 commands; send one at a time' });
      expect(parseSolverReply('execute:   ')).toEqual({ kind: 'none', problem: 'the command after "execute:" is empty' });
      const huge = parseSolverReply(`execute: echo ${'x'.repeat(MAX_SOLVER_REPLY_CHARS)}`);
      expect(huge.kind === 'none' && huge.problem).toMatch(/^your reply is \d+ characters long/);
    });

    it('are corrected in words the solver reads as a refused command', () => {
      expect(formatReplyCorrection('your reply was empty')).toMatch(
        /^Command rejected: your reply was empty\. Reply with exactly one command as "execute: <command>", or "\[TASK FINISHED\]"/,
      );
    });
  });
});
