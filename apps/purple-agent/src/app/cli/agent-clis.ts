import { Logger } from '@nestjs/common';
import { CodedError } from '@arvo-rca/common';
import type { AgentConfig } from '../agent/agent-config';
import type { AgentTemplates } from '../agent/agent-templates';
import type { TrajectorySink } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';
import { priceTableFrom, type PriceTable } from '../models/model-prices';
import type { UsageTotals } from '../models/usage';
import type { AgentCli, AgentCliName } from './agent-cli';
import { CliAgent } from './cli-agent';
import { CliGroupWatcher } from './cli-group-watcher';
import { agentCliCache, installedCli } from './cli-install';
import { CLAUDE_CODE } from './claude-code';
import { codex } from './codex';
import { geminiCli } from './gemini-cli';

/** Every CLI the purple agent can run, by its AGENT_CLI name. */
export const AGENT_CLIS: Readonly<Record<AgentCliName, AgentCli>> = { 'claude-code': CLAUDE_CODE, codex, 'gemini-cli': geminiCli };

export class AgentCliError extends CodedError<'AGENT_CLI_KEY_MISSING'> {}

export interface AgentCliSettings {
  AGENT_CLI?: AgentCliName;
  AGENT_CLI_MODEL?: string;
  MODEL_PRICES?: string;
}

/**
 * The CLI agent the purple agent runs as its solver (AGENT_CLI), or none (our own agent). Its key is
 * checked at boot; its package is installed in the background from boot on, and each task waits for it.
 */
export class AgentClis {
  readonly cli: AgentCli | undefined;
  private readonly prices: PriceTable;
  private installing: Promise<string> | undefined;

  constructor(
    private readonly settings: AgentCliSettings,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly logger = new Logger('AgentCli'),
  ) {
    this.cli = settings.AGENT_CLI ? AGENT_CLIS[settings.AGENT_CLI] : undefined;
    this.prices = priceTableFrom(settings.MODEL_PRICES);
    const cli = this.cli;
    if (!cli) return;
    if (!env[cli.keyVariable]) {
      throw new AgentCliError('AGENT_CLI_KEY_MISSING', `AGENT_CLI=${cli.name} needs its provider key in ${cli.keyVariable}, which is not set`);
    }
    // Started while the purple agent is small: its start forks this process (see CliGroupWatcher).
    CliGroupWatcher.shared().start();
    const endpoint = cli.baseUrlVariable && env[cli.baseUrlVariable] ? ` at ${env[cli.baseUrlVariable]}` : '';
    this.logger.log(`solver: ${cli.packageName}@${cli.version}, model ${settings.AGENT_CLI_MODEL ?? 'its default'}${endpoint}`);
    this.installing = this.install();
  }

  /** The name the card and the Result know the solver's model by: `<cli>@<version>/<model>`. */
  get modelName(): string | undefined {
    const { cli } = this;
    return cli && `${cli.name}@${cli.version}/${this.settings.AGENT_CLI_MODEL ?? 'default'}`;
  }

  /** A new run of the CLI on one task, once its package is installed. */
  async create(
    environment: TaskEnvironment,
    options: { config: AgentConfig; templates: AgentTemplates; sink?: TrajectorySink; processUsage?: UsageTotals },
  ): Promise<CliAgent> {
    const { cli } = this;
    if (!cli) throw new Error('no AGENT_CLI is set');
    // A failed install is tried again by the next task, which may find the registry reachable.
    this.installing ??= this.install();
    const packageDir = await this.installing;
    return new CliAgent(environment, { cli, packageDir, model: this.settings.AGENT_CLI_MODEL, env: this.env, prices: this.prices, ...options });
  }

  private install(): Promise<string> {
    const cli = this.cli as AgentCli;
    const cache = agentCliCache(this.env);
    const pending = installedCli(cli, cache);
    pending.then(
      (dir) => this.logger.log(`${cli.packageName}@${cli.version} is ready in ${dir}`),
      (error: Error) => {
        this.logger.error(error.message);
        this.installing = undefined;
      },
    );
    return pending;
  }
}
