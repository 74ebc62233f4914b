import { Module, type DynamicModule } from '@nestjs/common';
import { buildAgentCard, PRODUCT_VERSION, solverModelExtension } from '@arvo-rca/a2a-protocol';
import { agentAppModule, publicUrl } from '@arvo-rca/agent-app';
import { PurpleConfig } from './purple-config';
import { AgentClis } from './cli/agent-clis';
import { ModelFactory } from './models/model-factory';
import { answeredDialects, PurpleExecutor, SolverModule } from './solver';

// Built at boot rather than at import, so that the configuration sees the command-line flags.
@Module({})
export class AppModule {
  static forRoot(): DynamicModule {
    return agentAppModule(AppModule, PurpleConfig, 'purple', {
      card: {
        inject: [PurpleConfig, ModelFactory, AgentClis],
        useFactory: (config: PurpleConfig, models: ModelFactory, clis: AgentClis) => {
          const model = clis.modelName ?? models.modelName;
          // Which agent explores: ours, or a coding agent's CLI run unchanged (AGENT_CLI), with its version.
          const agent = clis.cli ? `${clis.cli.packageName} ${clis.cli.version}, run unchanged with the task's MCP tools only` : 'its own loop';
          return buildAgentCard({
            name: 'arvo-rca purple agent',
            description:
              'Root-cause analysis agent: explores a vulnerable C/C++ codebase one shell command at a time through ' +
              `the green agent and submits ranked root-cause locations in loc.json. Agent: ${agent}. Model: ${model}.`,
            version: PRODUCT_VERSION,
            url: publicUrl(config),
            extensions: [solverModelExtension(model)],
            // It reads text (a terminal-bench envelope is JSON text); it answers in text and in data: how its run
            // ended on its final status, a terminal-bench message in a Result artifact.
            inputModes: ['text/plain'],
            outputModes: ['text/plain', 'application/json'],
            skills: [
              {
                id: 'root-cause-analysis',
                name: 'Root-cause analysis of a sanitizer crash',
                description:
                  'Receives a task and explores it one shell command at a time until it submits: in reply mode (execute: commands), ' +
                  'in terminal-bench-shell-v1 (exec_request), or calling the green agent back when told where it is.',
                // The dialects it answers, each known by the first message: an assessor reads them from these tags.
                tags: ['root-cause-analysis', 'vulnerability', 'c', 'c++', 'agent', ...answeredDialects(config.GREEN_AGENT_URL)],
                examples: [],
              },
            ],
          });
        },
      },
      executor: PurpleExecutor,
      imports: [SolverModule],
    });
  }
}
