import { randomUUID } from 'node:crypto';
import { ClientFactory } from '@a2a-js/sdk/client';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { Scratch, startAgent, type AgentProcess } from './agent-processes';

export type CliName = 'claude-code' | 'codex' | 'gemini-cli';

/** What the stack needs of the scripted stand-in of the CLI's provider (a spec's FakeLlmServer). */
export interface ProviderStandIn {
  anthropicBaseUrl: string;
  openAiBaseUrl: string;
  geminiBaseUrl: string;
  close(): Promise<void>;
}

/** Each CLI's key, endpoint and model variables, at the scripted stand-in of its provider. */
const CLI_ENV: Record<CliName, (llm: ProviderStandIn) => Record<string, string>> = {
  'claude-code': (llm) => ({ ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'claude-sonnet-4-5' }),
  codex: (llm) => ({ OPENAI_BASE_URL: llm.openAiBaseUrl, OPENAI_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'gpt-5.5' }),
  'gemini-cli': (llm) => ({ GOOGLE_GEMINI_BASE_URL: llm.geminiBaseUrl, GEMINI_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'gemini-2.5-pro' }),
};

/** One assessment's events, and its Result when it sent one. */
export interface CliAssessment {
  events: PeerEvent[];
  result?: AssessmentResult;
}

/**
 * Both agents from their builds, the purple agent running a real CLI (`AGENT_CLI`) against a scripted
 * stand-in of its provider on loopback, sharing one scratch area; `stop` ends all of it.
 */
export class CliAgentStack<Llm extends ProviderStandIn> {
  private constructor(
    readonly cli: CliName,
    readonly llm: Llm,
    readonly scratch: Scratch,
    readonly green: AgentProcess,
    readonly purple: AgentProcess,
  ) {}

  /** The CLI's provider is `llm`, which `stop` closes; `extra` adds to either agent's environment. */
  static async start<Llm extends ProviderStandIn>(cli: CliName, llm: Llm, extra: { green?: NodeJS.ProcessEnv } = {}): Promise<CliAgentStack<Llm>> {
    const scratch = new Scratch();
    const [greenPort, purplePort] = [await freePort(), await freePort()];
    const env = { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
    const started = await Promise.allSettled([
      startAgent('green-agent', { ...env, ...extra.green }, greenPort),
      startAgent('purple-agent', { ...env, AGENT_CLI: cli, ...CLI_ENV[cli](llm) }, purplePort),
    ]);
    const [green, purple] = started.map((one) => (one.status === 'fulfilled' ? one.value : undefined));
    if (!green || !purple) {
      await Promise.all([green?.stop(), purple?.stop()]);
      await llm.close();
      scratch.remove();
      const failed = started.find((one): one is PromiseRejectedResult => one.status === 'rejected');
      throw failed?.reason;
    }
    return new CliAgentStack(cli, llm, scratch, green, purple);
  }

  /** Asks the green agent to assess `taskIds` with the purple agent, and follows its stream to the end. */
  async assess(taskIds: string[], concurrency = 1): Promise<CliAssessment> {
    const request = { participants: { purple_agent: this.purple.url }, config: { task_ids: taskIds, concurrency } };
    const events: PeerEvent[] = [];
    const stream = new A2aClientFactory().peer(this.green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 600_000 });
    for await (const event of stream) events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
    return { events, result: artifact?.data[0] };
  }

  /** The id of the purple agent's A2A task whose history names `marker` (say the task id its request carries). */
  async solverTask(marker: string): Promise<string | undefined> {
    const client = await new ClientFactory().createFromUrl(this.purple.url);
    const { tasks } = await client.listTasks({
      tenant: '',
      contextId: '',
      status: 0,
      pageSize: 100,
      pageToken: '',
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    return tasks.find((task) => JSON.stringify(task.history).includes(marker))?.id;
  }

  /** What went wrong, for a failure's message: the last events and both agents' last output. */
  explain(events: PeerEvent[]): string {
    return `last events: ${JSON.stringify(events.slice(-3))}\n${this.green.log.slice(-2000)}\n${this.purple.log.slice(-3000)}`;
  }

  /** Ends both agents (the purple agent with `purpleSignal`), the provider's stand-in, and the scratch area. */
  async stop(purpleSignal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await Promise.all([this.purple.stop(purpleSignal), this.green.stop()]);
    await this.llm.close();
    this.scratch.remove();
  }
}
