import { IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Min } from 'class-validator';
import { AgentEnvironment } from '@arvo-rca/a2a-protocol';

/** The purple agent's configuration; `.env.example` documents each variable. */
export class PurpleEnvironment extends AgentEnvironment {
  override PORT: number = 9019;

  @IsUrl({ require_tld: false, require_protocol: true })
  GREEN_AGENT_URL: string = 'http://127.0.0.1:9009/';

  // provider/name, or `baseline`; unset picks from the keys present (baseline without keys).
  @IsOptional()
  @Matches(/^(baseline|scripted|(anthropic|openai)\/\S+)$/, { message: 'MODEL must be baseline, anthropic/<model> or openai/<model>' })
  MODEL?: string;

  @IsOptional()
  @IsString()
  ANTHROPIC_API_KEY?: string;

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  OPENAI_BASE_URL?: string;

  @IsInt()
  @Min(0)
  STEP_LIMIT: number = 60;

  @IsNumber()
  @Min(0)
  COST_LIMIT: number = 2.0;

  @IsInt()
  @Min(0)
  WALL_TIME_LIMIT_S: number = 1800;
}
