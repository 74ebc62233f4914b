import {
  clampExecTimeout,
  DEFAULT_EXEC_TIMEOUT_S,
  formatShellMessage,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type ShellMessage,
} from './terminal-bench-shell';

describe('terminal-bench-shell-v1 messages', () => {
  it.each<[string, ShellMessage]>([
    ['the task envelope', { kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: 'Find the bug.\nWrite loc.json.' }],
    ['a command with a timeout', { kind: 'exec_request', command: 'ls /src', timeout: 60 }],
    ['a command without one', { kind: 'exec_request', command: 'cat <<EOF > /out/loc.json\n{}\nEOF' }],
    ['a command result', { kind: 'exec_result', exit_code: 2, stdout: 'a\n', stderr: 'no such file' }],
    ['the end of a turn', { kind: 'final', output: { answer: 'done' } }],
  ])('parses back what it formats: %s', (_name, message) => {
    expect(parseShellMessage(formatShellMessage(message))).toEqual(message);
  });

  it('formats each message as one JSON object, as the assessor sends it', () => {
    expect(formatShellMessage({ kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: 'go' })).toBe(
      '{"kind":"task","protocol":"terminal-bench-shell-v1","instruction":"go"}',
    );
  });

  it.each([
    ['text that is not JSON (the assessor reads it as final)', 'I am done.'],
    ['a JSON value that is no object', '[1, 2]'],
    ['an unknown kind', '{"kind":"shell","command":"ls"}'],
    ['a task envelope of another protocol', '{"kind":"task","protocol":"other","instruction":"x"}'],
    ['a blank command', '{"kind":"exec_request","command":"  "}'],
    ['a result without its streams', '{"kind":"exec_result","exit_code":0}'],
  ])('refuses %s', (_name, text) => {
    expect(parseShellMessage(text)).toBeUndefined();
  });

  it('drops a timeout that is no number', () => {
    expect(parseShellMessage('{"kind":"exec_request","command":"ls","timeout":"long"}')).toEqual({ kind: 'exec_request', command: 'ls' });
  });
});

describe('clampExecTimeout', () => {
  it('gives 30 s to a command that names no time or no number', () => {
    expect(clampExecTimeout(undefined, 120)).toBe(DEFAULT_EXEC_TIMEOUT_S);
    expect(clampExecTimeout('60', 120)).toBe(DEFAULT_EXEC_TIMEOUT_S);
    expect(clampExecTimeout(Number.NaN, 120)).toBe(DEFAULT_EXEC_TIMEOUT_S);
  });

  it('keeps a time within the limits', () => {
    expect(clampExecTimeout(45, 120)).toBe(45);
  });

  it('clamps to at least 1 s and at most 300 s or the assessor’s limit, whichever is lower', () => {
    expect(clampExecTimeout(0, 120)).toBe(1);
    expect(clampExecTimeout(-5, 120)).toBe(1);
    expect(clampExecTimeout(1000, 600)).toBe(300);
    expect(clampExecTimeout(1000, 120)).toBe(120);
    expect(clampExecTimeout(undefined, 10)).toBe(10);
  });
});
