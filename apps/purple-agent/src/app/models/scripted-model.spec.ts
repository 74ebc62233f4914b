import { ModelCallError } from './model-errors';
import { parseScript, ScriptedModel } from './scripted-model';

const USER = [{ role: 'user' as const, content: 'find the root cause' }];

function elapsedMs(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

describe('the scripted model', () => {
  it('thinks for its delayMs before each reply that has one, and answers at once otherwise', async () => {
    const model = new ScriptedModel([{ content: 'slow', delayMs: 200 }, 'fast']);

    const slowStarted = process.hrtime.bigint();
    expect((await model.query(USER)).content).toBe('slow');
    const slowMs = elapsedMs(slowStarted);
    const fastStarted = process.hrtime.bigint();
    expect((await model.query(USER)).content).toBe('fast');
    const fastMs = elapsedMs(fastStarted);

    expect(slowMs).toBeGreaterThanOrEqual(195);
    expect(fastMs).toBeLessThan(slowMs / 2);
  });

  it('stops thinking when its call is aborted, as a real model call does', async () => {
    const model = new ScriptedModel([{ content: 'never', delayMs: 60_000 }]);
    const abort = new AbortController();
    const answer = model.query(USER, { signal: abort.signal });
    abort.abort();

    await expect(answer).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
    await expect(answer).rejects.toBeInstanceOf(ModelCallError);
  });

  it('reads delayMs from a script file and refuses one that is not a duration', () => {
    expect(parseScript('[{"content": "a", "delayMs": 2000}, "b"]', 'script.json')).toEqual([{ content: 'a', delayMs: 2000 }, 'b']);
    expect(() => parseScript('[{"content": "a", "delayMs": "2s"}]', 'script.json')).toThrow('script.json: reply 0 has a delayMs that is not a number');
    expect(() => parseScript('[{"content": "a", "delayMs": -1}]', 'script.json')).toThrow('reply 0 has a delayMs');
  });
});
