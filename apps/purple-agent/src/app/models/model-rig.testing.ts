import { FakeLlmServer } from '@arvo-rca/fake-llm';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import { DefaultAgent } from '../agent/default-agent';
import { LocalWorkspaceEnvironment } from '../agent/local-workspace-environment.testing';
import type { HttpModelOptions, Model } from './model';

export const RIG_TASK = { taskId: 'sample:1', contextId: 'ctx', description: 'Find the root cause.' };

/** A reply with one bash block, as a model would write it. */
export const bash = (command: string): string => `THOUGHT: go\n\n\`\`\`bash\n${command}\n\`\`\``;

export interface ModelRig {
  /** A fresh fake LLM server per test, accepting `apiKey`. */
  readonly server: FakeLlmServer;
  /** A fresh empty workspace per test. */
  readonly environment: LocalWorkspaceEnvironment;
  /** An agent on this test's workspace; one step unless the config says otherwise. */
  agentWith(model: Model, config?: Partial<AgentConfig>): DefaultAgent;
  /** What an HTTP model on this rig's server is built with besides its name, URL, tokens and price: the rig's key, 5 s a call, three quick retries. */
  readonly httpOptions: Pick<HttpModelOptions, 'apiKey' | 'timeoutMs' | 'retry'>;
}

/** Registers the hooks of a model suite: a fake server and a workspace per test, the real templates. */
export function useModelRig(apiKey: string): ModelRig {
  let server: FakeLlmServer;
  let environment: LocalWorkspaceEnvironment;
  let templates: AgentTemplates;
  beforeAll(async () => {
    templates = await AgentTemplates.load();
  });
  beforeEach(async () => {
    server = await FakeLlmServer.start({ apiKey });
    environment = await LocalWorkspaceEnvironment.empty();
  });
  afterEach(async () => {
    await server.close();
    await environment.dispose();
  });
  return {
    get server() {
      return server;
    },
    get environment() {
      return environment;
    },
    agentWith: (model, config = {}) => new DefaultAgent(model, environment, { templates, config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 1, ...config } }),
    httpOptions: { apiKey, timeoutMs: 5000, retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 2000 } },
  };
}
