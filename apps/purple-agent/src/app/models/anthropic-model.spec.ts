import { httpError, reply } from '@arvo-rca/fake-llm';
import { AnthropicModel } from './anthropic-model';
import type { HttpModelOptions } from './model';
import { bash, RIG_TASK as TASK, useModelRig } from './model-rig.testing';

interface SentBlock {
  type: string;
  text: string;
  cache_control?: { type: string };
}
interface SentMessages {
  system: SentBlock[];
  messages: { role: string; content: string | SentBlock[] }[];
}

describe('AnthropicModel against a Messages server', () => {
  const rig = useModelRig('key-right');

  function model(overrides: Partial<HttpModelOptions> = {}): AnthropicModel {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    return new AnthropicModel({ ...rig.httpOptions, model: 'claude-sonnet-4-6', baseUrl: rig.server.anthropicBaseUrl, maxTokens: 512, price, ...overrides });
  }

  it('sends cache breakpoints on the system prompt and the two latest user turns, and counts cache tokens and their cost', async () => {
    rig.server.script(
      reply(bash('echo one'), { usage: { input: 2000, output: 40, cacheWrite: 2000 } }),
      reply(bash('echo two'), { usage: { input: 30, output: 40, cacheRead: 2000, cacheWrite: 60 } }),
      reply(bash('echo three'), { usage: { input: 30, output: 40, cacheRead: 2060, cacheWrite: 60 } }),
    );
    const agent = rig.agentWith(model(), { stepLimit: 3 });

    const result = await agent.run(TASK);

    const last = rig.server.requests[2].body as SentMessages;
    expect(last.system).toEqual([{ type: 'text', text: agent.messages[0].content, cache_control: { type: 'ephemeral' } }]);
    expect(last.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const marked = last.messages.map(
      (message) => typeof message.content !== 'string' && message.content.some((block) => block.cache_control?.type === 'ephemeral'),
    );
    expect(marked).toEqual([false, false, true, false, true]);
    expect((rig.server.requests[0].body as SentMessages).messages[0].content).toEqual([
      { type: 'text', text: agent.messages[1].content, cache_control: { type: 'ephemeral' } },
    ]);
    expect(agent.calls.map((call) => [call.cacheRead, call.cacheWrite])).toEqual([
      [0, 2000],
      [2000, 60],
      [2060, 60],
    ]);
    expect(result.usage).toMatchObject({ llm_requests: 3, input_tokens: 2060, output_tokens: 120, cache_read_tokens: 4060, cache_creation_tokens: 2120 });
    expect(result.usage.est_usd_cost).toBeCloseTo((2060 * 3 + 120 * 15 + 4060 * 0.3 + 2120 * 3.75) / 1e6, 12);
  });

  it('retries an overloaded answer and counts the call once', async () => {
    rig.server.script(httpError(529), reply(bash('echo ok'), { usage: { input: 10, output: 5 } }));

    const result = await rig.agentWith(model(), { stepLimit: 1 }).run(TASK);

    expect(rig.server.requests).toHaveLength(2);
    expect(result.usage).toMatchObject({ llm_requests: 1, input_tokens: 10, output_tokens: 5 });
    expect(rig.environment.commands).toEqual(['echo ok']);
  });

  it('ends the run with ModelError and the provider message on a bad key', async () => {
    const result = await rig.agentWith(model({ apiKey: 'key-wrong' }), { stepLimit: 5 }).run(TASK);

    expect(result.exitStatus).toBe('ModelError');
    expect(result.message).toBe('the model failed (MODEL_AUTH): Anthropic answered HTTP 401: invalid x-api-key');
    expect(rig.server.requests).toHaveLength(1);
  });

  it('never runs a reply that stopped at max_tokens', async () => {
    rig.server.script(reply(bash('touch /workspace/shared/should-not-exist'), { stop: 'max_tokens' }));
    const agent = rig.agentWith(model(), { stepLimit: 1 });

    await agent.run(TASK);

    expect(rig.environment.commands).toEqual([]);
    expect(agent.messages.at(-2)?.content).toMatch(/cut off at the output token limit/);
  });
});
