import { FakeLlmServer, connectionReset, httpError, reply } from '@arvo-rca/fake-llm';
import { DEFAULT_AGENT_CONFIG } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import { DefaultAgent } from '../agent/default-agent';
import { LocalWorkspaceEnvironment } from '../agent/local-workspace-environment.testing';
import type { HttpModelOptions } from './model';
import { OpenAiModel } from './openai-model';

const TASK = { taskId: 'sample:1', contextId: 'ctx', description: 'Find the root cause.' };
const bash = (command: string): string => `THOUGHT: go\n\n\`\`\`bash\n${command}\n\`\`\``;

describe('OpenAiModel against a Chat Completions server', () => {
  let server: FakeLlmServer;
  let environment: LocalWorkspaceEnvironment;
  let templates: AgentTemplates;
  beforeAll(async () => {
    templates = await AgentTemplates.load();
  });
  beforeEach(async () => {
    server = await FakeLlmServer.start({ apiKey: 'sk-right' });
    environment = await LocalWorkspaceEnvironment.empty();
  });
  afterEach(async () => {
    await server.close();
    await environment.dispose();
  });

  function model(overrides: Partial<HttpModelOptions> = {}): OpenAiModel {
    return new OpenAiModel({
      model: 'gpt-4.1',
      apiKey: 'sk-right',
      baseUrl: server.openAiBaseUrl,
      maxTokens: 256,
      timeoutMs: 5000,
      retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 2000 },
      price: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
      ...overrides,
    });
  }
  const agentWith = (m: OpenAiModel): DefaultAgent => new DefaultAgent({ model: m, environment, templates, config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 1 } });

  it('retries a 429 after its retry-after, and counts the call and its tokens once', async () => {
    server.script(httpError(429, { retryAfter: 1 }), reply(bash('echo hi'), { usage: { input: 120, output: 30, cacheRead: 880 } }));
    const agent = agentWith(model());

    const result = await agent.run(TASK);

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].receivedAt - server.requests[0].receivedAt).toBeGreaterThanOrEqual(950);
    expect(environment.commands).toEqual(['echo hi']);
    expect(result.usage).toMatchObject({ calls: 1, input: 120, output: 30, cacheRead: 880, cacheWrite: 0 });
    expect(result.usage.cost).toBeCloseTo((120 * 2 + 30 * 8 + 880 * 0.5) / 1e6, 12);
    expect(server.requests[1].body).toMatchObject({ model: 'gpt-4.1', max_completion_tokens: 256, messages: [{ role: 'system' }, { role: 'user' }] });
  });

  it('retries server errors, dropped connections and replies slower than its timeout, then answers', async () => {
    server.script(httpError(500), connectionReset(), reply('too late', { delayMs: 2000 }), reply('in time'));

    const answer = await model({ timeoutMs: 400 }).query([{ role: 'user', content: 'hi' }]);

    expect(answer.content).toBe('in time');
    expect(server.requests).toHaveLength(4);
  });

  it('ends the run with ModelError and the provider message on a bad key, without retrying', async () => {
    const agent = agentWith(model({ apiKey: 'sk-wrong' }));

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('ModelError');
    expect(result.message).toBe('the model failed (MODEL_AUTH): OpenAI answered HTTP 401: Incorrect API key provided.');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a bad request', async () => {
    server.script(httpError(400, { message: "Unsupported parameter: 'max_completion_tokens'" }));

    await expect(model().query([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ code: 'MODEL_BAD_REQUEST', message: expect.stringContaining('Unsupported parameter') });
    expect(server.requests).toHaveLength(1);
  });

  it('stops a model call still running when the wall-time limit passes, ending with TimeExceeded', async () => {
    server.script(reply(bash('echo late'), { delayMs: 4000 }));
    const agent = new DefaultAgent({ model: model(), environment, templates, config: { ...DEFAULT_AGENT_CONFIG, wallTimeLimitS: 1 } });
    const started = Date.now();

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('TimeExceeded');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(environment.commands).toEqual([]);
  });

  it('never runs a reply that stopped at the length limit', async () => {
    server.script(reply(bash('touch /workspace/shared/should-not-exist'), { stop: 'max_tokens' }));
    const agent = agentWith(model());

    await agent.run(TASK);

    expect(environment.commands).toEqual([]);
    expect(agent.messages.at(-2)?.content).toMatch(/cut off at the output token limit/);
  });
});
