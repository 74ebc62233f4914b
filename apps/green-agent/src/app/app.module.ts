import { Module, type DynamicModule } from '@nestjs/common';
import { buildAgentCard, PRODUCT_VERSION } from '@arvo-rca/a2a-protocol';
import { runRecordExtension } from '@arvo-rca/run-record';
import { agentAppModule, publicUrl } from '@arvo-rca/agent-app';
import { GreenConfig } from './green-config';
import { AssessmentsModule } from './assessments';
import { GreenExecutor } from './green.executor';

// Built at boot rather than at import, so that the configuration sees the command-line flags.
@Module({})
export class AppModule {
  static forRoot(): DynamicModule {
    return agentAppModule(AppModule, GreenConfig, 'green', {
      card: {
        inject: [GreenConfig],
        useFactory: (config: GreenConfig) =>
          buildAgentCard({
            name: 'arvo-rca green agent',
            description:
              'Assessor of the arvo-rca benchmark: prepares real fuzzer-found C/C++ vulnerabilities (ARVO) in ' +
              "hardened containers, runs a solver agent's shell commands in them, and scores its root-cause locations.",
            version: PRODUCT_VERSION,
            url: publicUrl(config),
            // A request comes as text or as a data part; progress, Result and record go out as text and as data.
            inputModes: ['text/plain', 'application/json'],
            outputModes: ['text/plain', 'application/json'],
            // A runner that asks gets the run record's files as they are written, and keeps the record where it runs.
            extensions: [runRecordExtension()],
            skills: [
              {
                id: 'arvo-rca-assessment',
                name: 'ARVO root-cause assessment',
                description: 'Send "Task ID: arvo:<id>", or an AgentBeats assessment request naming a purple agent and task ids.',
                tags: ['benchmark', 'root-cause-analysis', 'vulnerability', 'c', 'c++'],
                examples: ['Task ID: arvo:14368', 'Task ID: sample:1'],
              },
            ],
          }),
      },
      executor: GreenExecutor,
      imports: [AssessmentsModule],
    });
  }
}
