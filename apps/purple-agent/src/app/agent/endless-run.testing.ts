// Test-only child process (spawned by trajectory.spec.ts with `node --require tsx/cjs`): an agent run
// that never ends, with a large trajectory written after every step, until its parent kills it.
// Usage: endless-run.testing.ts <trajectory file>
import type { ChatMessage, Model, ModelReply } from '../models/model';
import { NO_USAGE } from '../models/usage';
import { DEFAULT_AGENT_CONFIG } from './agent-config';
import { AgentTemplates } from './agent-templates';
import { DefaultAgent } from './default-agent';
import { LocalWorkspaceEnvironment } from './local-workspace-environment.testing';
import { TrajectoryFileSink } from './trajectory';

// A long THOUGHT makes every step's write of the trajectory large, so a kill may land inside one.
class ChattyModel implements Model {
  readonly name: string = 'chatty';

  async query(messages: readonly ChatMessage[]): Promise<ModelReply> {
    const thought = `step ${messages.length} `.repeat(20_000);
    return { content: `THOUGHT: ${thought}\n\n\`\`\`bash\necho step\n\`\`\``, truncated: false, usage: { ...NO_USAGE, output: 1 }, cost: 0 };
  }
}

async function main(trajectoryFile: string): Promise<void> {
  const environment = await LocalWorkspaceEnvironment.empty();
  process.stdout.write(`workspace ${environment.root}\n`);
  const agent = new DefaultAgent(new ChattyModel(), environment, {
    templates: await AgentTemplates.load(),
    config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 0, costLimit: 0, wallTimeLimitS: 0 },
    sink: new TrajectoryFileSink(trajectoryFile, { onStep: ({ steps }) => process.stdout.write(`step ${steps}\n`) }),
  });
  await agent.run({ taskId: 'sample:1', contextId: 'endless', description: 'never ends' });
}

void main(process.argv[2]);
