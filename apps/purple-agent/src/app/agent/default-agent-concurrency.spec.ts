import { ScriptedModel } from '../models/scripted-model';
import { UsageTotals } from '../models/usage';
import { DEFAULT_AGENT_CONFIG } from './agent-config';
import { AgentTemplates } from './agent-templates';
import { DefaultAgent } from './default-agent';
import { LocalWorkspaceEnvironment } from './local-workspace-environment.testing';

const bash = (command: string): string => `THOUGHT: go\n\n\`\`\`bash\n${command}\n\`\`\``;

describe('DefaultAgent in concurrent task contexts', () => {
  it('keeps separate messages, command histories and token totals per context, and adds both to the process totals', async () => {
    const templates = await AgentTemplates.load();
    const processUsage = new UsageTotals();
    const [envA, envB] = await Promise.all([LocalWorkspaceEnvironment.empty(), LocalWorkspaceEnvironment.empty()]);
    try {
      // The sleeps interleave the two runs' steps.
      const modelA = new ScriptedModel(
        ['a1', 'a2', 'a3'].map((tag) => ({ content: bash(`sleep 0.05; echo ${tag}`), usage: { input: 100, output: 10 }, cost: 0.01 })),
      );
      const modelB = new ScriptedModel(
        ['b1', 'b2'].map((tag) => ({ content: bash(`echo ${tag}; sleep 0.08`), usage: { input: 7, output: 1, cacheRead: 50 }, cost: 0.002 })),
      );
      const agentA = new DefaultAgent(modelA, envA, { templates, config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 3 }, processUsage });
      const agentB = new DefaultAgent(modelB, envB, { templates, config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 2 }, processUsage });

      const [resultA, resultB] = await Promise.all([
        agentA.run({ taskId: 'sample:1', contextId: 'A', description: 'task for A' }),
        agentB.run({ taskId: 'sample:2', contextId: 'B', description: 'task for B' }),
      ]);

      expect([resultA.exitStatus, resultB.exitStatus]).toEqual(['LimitsExceeded', 'LimitsExceeded']);
      expect(agentA.history.map((record) => record.command)).toEqual(['sleep 0.05; echo a1', 'sleep 0.05; echo a2', 'sleep 0.05; echo a3']);
      expect(agentB.history.map((record) => record.command)).toEqual(['echo b1; sleep 0.08', 'echo b2; sleep 0.08']);
      const textA = agentA.messages.map((message) => message.content).join('\n');
      const textB = agentB.messages.map((message) => message.content).join('\n');
      expect(textA).toContain('task for A');
      expect(textA).not.toMatch(/task for B|b1|b2/);
      expect(textB).not.toMatch(/task for A|a1|a2|a3/);
      expect(modelB.calls.every((call) => call.every((message) => !message.content.includes('a1')))).toBe(true);
      expect(resultA.usage).toMatchObject({ llm_requests: 3, input_tokens: 300, output_tokens: 30, cache_read_tokens: 0, cache_creation_tokens: 0 });
      expect(resultA.usage.est_usd_cost).toBeCloseTo(0.03);
      expect(resultB.usage).toMatchObject({ llm_requests: 2, input_tokens: 14, output_tokens: 2, cache_read_tokens: 100, cache_creation_tokens: 0 });
      expect(resultB.usage.est_usd_cost).toBeCloseTo(0.004);
      expect(processUsage.snapshot()).toMatchObject({ llm_requests: 5, input_tokens: 314, output_tokens: 32, cache_read_tokens: 100 });
      expect(processUsage.cost).toBeCloseTo(0.034);
    } finally {
      await Promise.all([envA.dispose(), envB.dispose()]);
    }
  });
});
