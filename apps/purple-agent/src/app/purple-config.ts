import { IsIn, IsInt, IsJSON, IsNumber, IsOptional, IsString, IsUrl, Matches, Min } from 'class-validator';
import { AppConfig } from '@arvo-rca/agent-app';
import { DEFAULT_AGENT_CONFIG } from './agent/agent-config';
import { AGENT_CLI_NAMES, type AgentCliName } from './cli/agent-cli';

/**
 * The purple agent's configuration, validated once at boot and injected as it is; `.env.example`
 * documents each variable. The loop's limits default to the loop's own defaults.
 */
export class PurpleConfig extends AppConfig {
  override PORT: number = 9019;

  // Set: the callback dialect, commands go to this green agent as messages of their own. Unset (the default, and
  // the only way through AgentBeats' gateway): the reply dialect, each command is the reply to the green's message.
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  GREEN_AGENT_URL?: string;

  // How long the agent waits for the green's answer to a command, either way; the green's own command timeout is shorter.
  @IsInt()
  @Min(1)
  GREEN_CALL_TIMEOUT_S: number = 900;

  // A coding agent's CLI run unchanged as the solver, its only tools the task's MCP server; unset: our own agent.
  // Its provider key and base URL are its own variables (ANTHROPIC_*, OPENAI_*, GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL).
  @IsOptional()
  @IsIn(AGENT_CLI_NAMES, { message: `AGENT_CLI must be one of ${AGENT_CLI_NAMES.join(', ')}` })
  AGENT_CLI?: AgentCliName;

  // The model the CLI is told to use; its own default when unset.
  @IsOptional()
  @IsString()
  AGENT_CLI_MODEL?: string;

  // Where the CLIs are installed (npm run agents -- install); ~/.cache/arvo-rca/agent-clis by default.
  @IsOptional()
  @IsString()
  AGENT_CLI_CACHE?: string;

  // provider/name, or `baseline`; unset picks from the keys present (baseline without keys).
  @IsOptional()
  @Matches(/^(baseline|scripted|(anthropic|openai)\/\S+)$/, { message: 'MODEL must be baseline, scripted, anthropic/<model> or openai/<model>' })
  MODEL?: string;

  // For MODEL=scripted: a JSON array of replies to replay (tests and end-to-end runs).
  @IsOptional()
  @IsString()
  MODEL_SCRIPT_FILE?: string;

  @IsOptional()
  @IsString()
  ANTHROPIC_API_KEY?: string;

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  OPENAI_BASE_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  ANTHROPIC_BASE_URL?: string;

  @IsInt()
  @Min(1)
  MODEL_MAX_TOKENS: number = 4096;

  // Per attempt; retries come on top.
  @IsInt()
  @Min(1)
  MODEL_TIMEOUT_S: number = 300;

  @IsInt()
  @Min(0)
  MODEL_MAX_RETRIES: number = 6;

  // USD per million tokens by model-name prefix, over the built-in table:
  // {"my-model": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 1.25}}
  @IsOptional()
  @IsJSON()
  MODEL_PRICES?: string;

  @IsInt()
  @Min(0)
  STEP_LIMIT: number = DEFAULT_AGENT_CONFIG.stepLimit;

  @IsNumber()
  @Min(0)
  COST_LIMIT: number = DEFAULT_AGENT_CONFIG.costLimit;

  @IsInt()
  @Min(0)
  WALL_TIME_LIMIT_S: number = DEFAULT_AGENT_CONFIG.wallTimeLimitS;

  // Consecutive replies without exactly one bash block before the run ends with FormatError.
  @IsInt()
  @Min(0)
  FORMAT_ERROR_LIMIT: number = DEFAULT_AGENT_CONFIG.formatErrorLimit;

  // Prompt templates (system.md, instance.md ...); the bundled ones by default.
  @IsOptional()
  @IsString()
  AGENT_TEMPLATES_DIR?: string;
}
