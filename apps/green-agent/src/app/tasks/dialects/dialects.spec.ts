import { formatShellMessage, TERMINAL_BENCH_SHELL, type DialectName } from '@arvo-rca/a2a-protocol';
import { chooseDialect, dialectDeclaredBy, dialectFor, FirstAnswerDialect, SolverDialectChoice } from '.';

const skill = (id: string, tags: string[]) => ({ id, name: id, description: '', tags, examples: [] });

describe("choosing the solver's dialect", () => {
  it('reads terminal-bench-shell-v1 from a skill tagged terminal-bench, as the dummy solver is', () => {
    expect(dialectDeclaredBy({ skills: [skill('terminal-bench-dummy', ['terminal-bench', 'dummy'])] })).toBe(TERMINAL_BENCH_SHELL);
  });

  it("reads a dialect named as a skill's id or tag", () => {
    expect(dialectDeclaredBy({ skills: [skill('terminal-bench-shell-v1', [])] })).toBe(TERMINAL_BENCH_SHELL);
    expect(dialectDeclaredBy({ skills: [skill('rca', ['callback'])] })).toBe('callback');
  });

  it('speaks the reply dialect to a card that declares it among others, as ours does', () => {
    expect(dialectDeclaredBy({ skills: [skill('a', ['reply']), skill('b', ['terminal-bench'])] })).toBe('reply');
    expect(dialectDeclaredBy({ skills: [skill('rca', ['callback', TERMINAL_BENCH_SHELL, 'reply'])] })).toBe('reply');
  });

  it('finds none on a card that declares none, or several without the reply dialect', () => {
    expect(dialectDeclaredBy({ skills: [skill('root-cause-analysis', ['rca', 'arvo'])] })).toBeUndefined();
    expect(dialectDeclaredBy({ skills: [skill('a', ['callback']), skill('b', ['terminal-bench'])] })).toBeUndefined();
    expect(dialectDeclaredBy('not a card')).toBeUndefined();
  });

  it("takes the request's dialect first, then the card's, then leaves it to the solver's first answer, and says why", () => {
    const card = { skills: [skill('x', ['terminal-bench'])] };
    expect(chooseDialect('callback', card)).toEqual({ dialect: 'callback', source: 'config' });
    expect(chooseDialect(undefined, card)).toEqual({ dialect: TERMINAL_BENCH_SHELL, source: 'card' });
    expect(chooseDialect(undefined, { skills: [] })).toEqual({ dialect: undefined, source: 'first-answer' });
  });

  it('keeps the first dialect a first answer shows, for the tasks handed over after it', () => {
    const heard: DialectName[] = [];
    const choice = new SolverDialectChoice({ dialect: undefined, source: 'first-answer' }, (dialect) => heard.push(dialect));
    choice.found(TERMINAL_BENCH_SHELL);
    choice.found('reply');
    expect([choice.dialect, choice.source, heard]).toEqual([TERMINAL_BENCH_SHELL, 'first-answer', [TERMINAL_BENCH_SHELL]]);
  });
});

describe("the solver's first answer, when nothing names its dialect", () => {
  const opened = (calledBack = false) => {
    const found: DialectName[] = [];
    return {
      found,
      dialect: new FirstAnswerDialect(
        60,
        (dialect) => found.push(dialect),
        () => calledBack,
      ),
    };
  };
  // What a terminal-bench solver answers to a text it does not know: our task, echoed in a final (agent.py 33-48).
  const echo = JSON.stringify({ kind: 'final', output: 'Answer each message with one shell command, as `execute: <command>`;' });

  it('starts again in terminal-bench-shell-v1 on an exec_request or a final, running nothing of it', () => {
    for (const text of [echo, '{"kind":"exec_request","command":"ls","timeout":5}']) {
      const { found, dialect } = opened();
      const step = dialect.read({ state: 'completed', text });
      expect(step.kind === 'restart' && step.dialect.name).toBe(TERMINAL_BENCH_SHELL);
      expect(found).toEqual([TERMINAL_BENCH_SHELL]);
    }
  });

  it('goes on in the reply dialect on any other first answer, and reads every later one as the reply dialect does', () => {
    const { found, dialect } = opened();
    expect(dialect.read({ state: 'input-required', text: 'execute: ls' })).toEqual({ kind: 'execute', command: 'ls' });
    expect(dialect.read({ state: 'input-required', text: echo })).toMatchObject({ kind: 'say' });
    expect(found).toEqual(['reply']);
  });

  it('stays in the reply dialect for a solver that called a command back before its first reply', () => {
    const { found, dialect } = opened(true);
    expect(dialect.read({ state: 'completed', text: echo })).toEqual({ kind: 'ended' });
    expect(found).toEqual(['reply']);
  });

  it('takes a solver that only called back, its task over before any reply, for a reply-dialect one', () => {
    const { found, dialect } = opened(true);
    dialect.over();
    expect(found).toEqual(['reply']);
    const silent = opened(false);
    silent.dialect.over();
    expect(silent.found).toEqual([]);
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
