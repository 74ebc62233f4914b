import { formatShellMessage, TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import { chooseSolverProtocol, dialectFor, protocolDeclaredBy } from '.';

const skill = (id: string, tags: string[]) => ({ id, name: id, description: '', tags, examples: [] });

describe('choosing the solver protocol', () => {
  it('reads terminal-bench-shell-v1 from a skill tagged terminal-bench, as the dummy solver is', () => {
    expect(protocolDeclaredBy({ skills: [skill('terminal-bench-dummy', ['terminal-bench', 'dummy'])] })).toBe(TERMINAL_BENCH_SHELL);
  });

  it("reads a protocol named as a skill's id or tag", () => {
    expect(protocolDeclaredBy({ skills: [skill('terminal-bench-shell-v1', [])] })).toBe(TERMINAL_BENCH_SHELL);
    expect(protocolDeclaredBy({ skills: [skill('rca', ['callback'])] })).toBe('callback');
  });

  it('speaks reply mode to a card that declares it among others, as ours does', () => {
    expect(protocolDeclaredBy({ skills: [skill('a', ['reply']), skill('b', ['terminal-bench'])] })).toBe('reply');
    expect(protocolDeclaredBy({ skills: [skill('rca', ['callback', TERMINAL_BENCH_SHELL, 'reply'])] })).toBe('reply');
  });

  it('finds none on a card that declares none, or several without reply mode', () => {
    expect(protocolDeclaredBy({ skills: [skill('root-cause-analysis', ['rca', 'arvo'])] })).toBeUndefined();
    expect(protocolDeclaredBy({ skills: [skill('a', ['callback']), skill('b', ['terminal-bench'])] })).toBeUndefined();
    expect(protocolDeclaredBy('not a card')).toBeUndefined();
  });

  it("takes the request's protocol first, then the card's, then reply mode", () => {
    const card = { skills: [skill('x', ['terminal-bench'])] };
    expect(chooseSolverProtocol('callback', card)).toBe('callback');
    expect(chooseSolverProtocol(undefined, card)).toBe(TERMINAL_BENCH_SHELL);
    expect(chooseSolverProtocol(undefined, { skills: [] })).toBe('reply');
  });
});

describe('the terminal-bench-shell-v1 dialect', () => {
  const dialect = dialectFor(TERMINAL_BENCH_SHELL, 20);
  const read = (text: string) => dialect.read({ state: 'completed', text });

  it("clamps a command's timeout to the green agent's COMMAND_TIMEOUT_S, and gives 30 s by default", () => {
    expect(read(formatShellMessage({ kind: 'exec_request', command: 'make', timeout: 1000 }))).toEqual({ kind: 'execute', command: 'make', timeoutS: 20 });
    expect(dialectFor(TERMINAL_BENCH_SHELL, 120).read({ state: 'completed', text: '{"kind":"exec_request","command":"ls"}' })).toMatchObject({ timeoutS: 30 });
  });

  it('ends the turn on final, and on a reply that is not JSON, as the original assessor does', () => {
    expect(read('{"kind":"final","output":"done"}')).toEqual({ kind: 'finished' });
    expect(read('I wrote loc.json.')).toEqual({ kind: 'finished' });
  });

  it("reads how the solver's run ended from a final whose output is a solver exit, as ours sends it", () => {
    const usage = { input_tokens: 10, cache_read_tokens: 0, cache_creation_tokens: 0, output_tokens: 5, est_usd_cost: null, time_cost_sec: 2, llm_requests: 3 };
    const output = { message: 'submitted', exit_status: 'Submitted', usage };
    expect(read(JSON.stringify({ kind: 'final', output }))).toEqual({ kind: 'finished', exit: { exitStatus: 'Submitted', usage } });
  });

  it('fails the solver on JSON that is no exec_request or final', () => {
    expect(read('{"kind":"exec_request","command":""}')).toMatchObject({ kind: 'failed' });
    expect(read('[1]')).toMatchObject({ kind: 'failed', reason: expect.stringContaining('no terminal-bench-shell-v1 exec_request or final') });
  });

  it("sends a command's result as exec_result, a timeout's reason as its stderr", () => {
    const result = dialect.result({ kind: 'ran', returncode: -1, output: 'partial', timedOut: 'command timed out after 20 s', outputBytes: 7, elidedBytes: 0 });
    expect(JSON.parse(result)).toEqual({ kind: 'exec_result', exit_code: -1, stdout: 'partial', stderr: 'command timed out after 20 s' });
  });
});

describe('the callback dialect', () => {
  it("reads no command from the solver's reply: its side has ended, or finished", () => {
    const dialect = dialectFor('callback', 120);
    expect(dialect.read({ state: 'input-required', text: 'execute: ls' })).toEqual({ kind: 'ended' });
    expect(dialect.read({ state: 'completed', text: '[TASK FINISHED]' })).toEqual({ kind: 'finished' });
  });
});
