import { formatCommandResult, formatShellMessage } from '@arvo-rca/a2a-protocol';
import { LOC_JSON_PATH } from '@arvo-rca/common';
import { REPLY_TURN_DIALECT, shellTurnDialect } from './turn-dialects';

describe('the turn dialects of an assessor that drives the conversation', () => {
  it('takes a terminal-bench task that names our loc.json as a root-cause task, and any other as submitted by the model', () => {
    expect(shellTurnDialect(`Find the root cause; write ${LOC_JSON_PATH}.`).submits).toBe('loc.json');
    expect(shellTurnDialect('Create hello.txt holding hello.').submits).toBe('output');
    expect(REPLY_TURN_DIALECT.submits).toBe('loc.json');
  });

  it("reads an exec_result as the command's result, stdout then stderr", () => {
    const answer = formatShellMessage({ kind: 'exec_result', exit_code: 2, stdout: 'out\n', stderr: 'err\n' });

    expect(shellTurnDialect('task').read(answer)).toEqual({ returncode: 2, output: 'out\nerr\n' });
  });

  it('ends the run on an answer that is no exec_result, naming it', () => {
    expect(() => shellTurnDialect('task').read(formatShellMessage({ kind: 'final', output: 'bye' }))).toThrow(
      'the assessor answered a command with no exec_result: {"kind":"final","output":"bye"}',
    );
    expect(() => shellTurnDialect('task').read('plain text')).toThrow(/no exec_result: plain text/);
  });

  it("reads the reply dialect's answers in our own vocabulary", () => {
    expect(REPLY_TURN_DIALECT.read(formatCommandResult({ returncode: 0, output: 'ok' }))).toEqual({ returncode: 0, output: 'ok' });
  });
});
