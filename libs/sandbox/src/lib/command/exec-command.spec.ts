import { commandOutcome, shellCommandArgv } from './exec-command';

const output = { output: 'partial\n', outputBytes: 8, elidedBytes: 0 };

describe('shellCommandArgv', () => {
  it('closes stdin, merges stderr into stdout, and runs the shell under timeout --kill-after', () => {
    expect(shellCommandArgv({ shell: ['bash', '-lc'], command: 'make -j2', timeoutS: 120, killAfterS: 5, useTimeout: true })).toEqual([
      'sh',
      '-c',
      'exec "$@" </dev/null 2>&1',
      'arvo-exec',
      'timeout',
      '--kill-after=5',
      '120',
      'bash',
      '-lc',
      'make -j2',
    ]);
  });

  it('leaves timeout out where the sandbox has none', () => {
    expect(shellCommandArgv({ shell: ['sh', '-c'], command: 'ls', timeoutS: 1, killAfterS: 1, useTimeout: false }).slice(4)).toEqual(['sh', '-c', 'ls']);
  });
});

describe('commandOutcome', () => {
  it('reports the exit code of a command that ended by itself', () => {
    expect(commandOutcome({ exitCode: 2, hostDeadlineHit: false, elapsedMs: 10 }, output, 120)).toEqual({ kind: 'ran', returncode: 2, ...output });
  });

  it("keeps a command's own exit code 124 when it ended before the limit", () => {
    expect(commandOutcome({ exitCode: 124, hostDeadlineHit: false, elapsedMs: 1500 }, output, 120)).toMatchObject({ kind: 'ran', returncode: 124 });
  });

  it('reports a timeout with -1 and its reason when timeout ended the command at the limit (TERM or KILL)', () => {
    for (const exitCode of [124, 137]) {
      expect(commandOutcome({ exitCode, hostDeadlineHit: false, elapsedMs: 120_003 }, output, 120)).toEqual({
        kind: 'ran',
        returncode: -1,
        timedOut: 'command timed out after 120 s',
        ...output,
      });
    }
  });

  it('reports a timeout when the host deadline passed first', () => {
    expect(commandOutcome({ exitCode: undefined, hostDeadlineHit: true, elapsedMs: 135_000 }, output, 120)).toMatchObject({
      kind: 'ran',
      returncode: -1,
      timedOut: 'command timed out after 120 s and did not stop; it was killed',
    });
  });
});
