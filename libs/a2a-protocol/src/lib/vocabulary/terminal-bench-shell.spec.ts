import {
  clampExecTimeout,
  DEFAULT_EXEC_TIMEOUT_S,
  formatShellMessage,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type ShellMessage,
} from './terminal-bench-shell';

describe('terminal-bench-shell-v1 messages', () => {
  const messages: ShellMessage[] = [
    { kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: 'create hello.txt' },
    { kind: 'exec_request', command: 'ls -la', timeout: 10 },
    { kind: 'exec_request', command: 'pwd' },
    { kind: 'exec_result', exit_code: 2, stdout: 'out\n', stderr: 'err\n' },
    { kind: 'final', output: { answer: 42 } },
  ];

  it.each(messages)('reads back what it writes: $kind', (message) => {
    expect(parseShellMessage(formatShellMessage(message))).toEqual(message);
  });

  it('writes each message as one JSON object, as the assessor reads it', () => {
    expect(JSON.parse(formatShellMessage({ kind: 'exec_request', command: 'ls', timeout: 5 }))).toEqual({ kind: 'exec_request', command: 'ls', timeout: 5 });
  });

  it.each([
    ['text that is not JSON', 'hello world'],
    ['JSON that is no object', '[1, 2]'],
    ['an unknown kind', '{"kind":"ping"}'],
    ['a task of another protocol', '{"kind":"task","protocol":"other-v2","instruction":"x"}'],
    ['an exec_request without a command', '{"kind":"exec_request","timeout":3}'],
    ['an exec_result without stderr', '{"kind":"exec_result","exit_code":0,"stdout":""}'],
    ['an exec_result with a fractional exit code', '{"kind":"exec_result","exit_code":0.5,"stdout":"","stderr":""}'],
  ])('is none of them for %s', (_, text) => {
    expect(parseShellMessage(text)).toBeUndefined();
  });

  it('takes a final without an output as a final', () => {
    expect(parseShellMessage('{"kind":"final"}')).toEqual({ kind: 'final', output: undefined });
  });
});

describe('clampExecTimeout', () => {
  it('gives the default when the request names no whole number of seconds', () => {
    for (const requested of [undefined, null, '10', 2.5, Number.NaN]) expect(clampExecTimeout(requested, 600)).toBe(DEFAULT_EXEC_TIMEOUT_S);
  });

  it('keeps a request between 1 and 300 s', () => {
    expect(clampExecTimeout(0, 600)).toBe(1);
    expect(clampExecTimeout(-5, 600)).toBe(1);
    expect(clampExecTimeout(120, 600)).toBe(120);
    expect(clampExecTimeout(1000, 600)).toBe(300);
  });

  it('never goes past the cap the assessor sets, the default included', () => {
    expect(clampExecTimeout(200, 60)).toBe(60);
    expect(clampExecTimeout(undefined, 20)).toBe(20);
  });
});
