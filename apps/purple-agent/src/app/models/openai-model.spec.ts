import { connectionReset, httpError, reply } from '@arvo-rca/fake-llm';
import { DEFAULT_AGENT_CONFIG } from '../agent/agent-config';
import type { HttpModelOptions } from './model';
import { bash, RIG_TASK as TASK, useModelRig } from './model-rig.testing';
import { OpenAiModel } from './openai-model';

describe('OpenAiModel against a Chat Completions server', () => {
  const rig = useModelRig('sk-right');

  function model(overrides: Partial<HttpModelOptions> = {}): OpenAiModel {
    const price = { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 };
    return new OpenAiModel({ ...rig.httpOptions, model: 'gpt-4.1', baseUrl: rig.server.openAiBaseUrl, maxTokens: 256, price, ...overrides });
  }

  it('retries a 429 after its retry-after, and counts the call and its tokens once', async () => {
    rig.server.script(httpError(429, { retryAfter: 1 }), reply(bash('echo hi'), { usage: { input: 120, output: 30, cacheRead: 880 } }));
    const agent = rig.agentWith(model());

    const result = await agent.run(TASK);

    expect(rig.server.requests).toHaveLength(2);
    expect(rig.server.requests[1].receivedAt - rig.server.requests[0].receivedAt).toBeGreaterThanOrEqual(950);
    expect(rig.environment.commands).toEqual(['echo hi']);
    expect(result.usage).toMatchObject({ llm_requests: 1, input_tokens: 120, output_tokens: 30, cache_read_tokens: 880, cache_creation_tokens: 0 });
    expect(result.usage.est_usd_cost).toBeCloseTo((120 * 2 + 30 * 8 + 880 * 0.5) / 1e6, 12);
    expect(rig.server.requests[1].body).toMatchObject({ model: 'gpt-4.1', max_completion_tokens: 256, messages: [{ role: 'system' }, { role: 'user' }] });
  });

  it('reports the cost of a model without a price as null, not 0, and still counts its tokens and calls', async () => {
    rig.server.script(reply(bash('echo hi'), { usage: { input: 120, output: 30 } }), reply(bash('echo again'), { usage: { input: 200, output: 10 } }));
    const agent = rig.agentWith(model({ model: 'local-model', price: undefined }), { stepLimit: 2 });

    const result = await agent.run(TASK);

    expect(result.usage).toMatchObject({ llm_requests: 2, input_tokens: 320, output_tokens: 40, est_usd_cost: null });
  });

  it('retries server errors, dropped connections and replies slower than its timeout, then answers', async () => {
    rig.server.script(httpError(500), connectionReset(), reply('too late', { delayMs: 2000 }), reply('in time'));

    const answer = await model({ timeoutMs: 400 }).query([{ role: 'user', content: 'hi' }]);

    expect(answer.content).toBe('in time');
    expect(rig.server.requests).toHaveLength(4);
  });

  it('ends the run with ModelError and the provider message on a bad key, without retrying', async () => {
    const agent = rig.agentWith(model({ apiKey: 'sk-wrong' }));

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('ModelError');
    expect(result.message).toBe('the model failed (MODEL_AUTH): OpenAI answered HTTP 401: Incorrect API key provided.');
    expect(rig.server.requests).toHaveLength(1);
  });

  it('does not retry a bad request', async () => {
    rig.server.script(httpError(400, { message: "Unsupported parameter: 'max_completion_tokens'" }));

    await expect(model().query([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      code: 'MODEL_BAD_REQUEST',
      message: expect.stringContaining('Unsupported parameter'),
    });
    expect(rig.server.requests).toHaveLength(1);
  });

  it('stops a model call still running when the wall-time limit passes, ending with TimeExceeded', async () => {
    rig.server.script(reply(bash('echo late'), { delayMs: 4000 }));
    const agent = rig.agentWith(model(), { stepLimit: DEFAULT_AGENT_CONFIG.stepLimit, wallTimeLimitS: 1 });
    const started = Date.now();

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('TimeExceeded');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(rig.environment.commands).toEqual([]);
  });

  it('never runs a reply that stopped at the length limit', async () => {
    rig.server.script(reply(bash('touch /workspace/shared/should-not-exist'), { stop: 'max_tokens' }));
    const agent = rig.agentWith(model());

    await agent.run(TASK);

    expect(rig.environment.commands).toEqual([]);
    expect(agent.messages.at(-2)?.content).toMatch(/cut off at the output token limit/);
  });
});
