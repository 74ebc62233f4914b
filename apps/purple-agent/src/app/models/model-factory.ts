import { readFileSync } from 'node:fs';
import type { PurpleConfig } from '../purple-config';
import { AnthropicModel } from './anthropic-model';
import { BaselineModel } from './baseline-model';
import { ModelCallError } from './model-errors';
import { priceFor, priceTableFrom, type PriceTable } from './model-prices';
import { SILENT_LOGGER, type HttpModelOptions, type Model, type ModelLogger } from './model';
import { OpenAiModel } from './openai-model';
import { DEFAULT_RETRY_POLICY } from './retry-policy';
import { parseScript, ScriptedModel, type ScriptedReply } from './scripted-model';

export type ModelSettings = Pick<
  PurpleConfig,
  | 'MODEL'
  | 'MODEL_SCRIPT_FILE'
  | 'ANTHROPIC_API_KEY'
  | 'ANTHROPIC_BASE_URL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'MODEL_MAX_TOKENS'
  | 'MODEL_TIMEOUT_S'
  | 'MODEL_MAX_RETRIES'
  | 'MODEL_PRICES'
>;

export type ModelProvider = 'anthropic' | 'openai' | 'baseline' | 'scripted';

export interface ModelSpec {
  provider: ModelProvider;
  /** The provider's model name; empty for baseline and scripted. */
  name: string;
}

/** Used when MODEL is unset and a key is present. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/** `MODEL=provider/name`; unset picks Anthropic, then OpenAI, by the keys present, else the baseline. */
export function resolveModelSpec(settings: Pick<ModelSettings, 'MODEL' | 'ANTHROPIC_API_KEY' | 'OPENAI_API_KEY'>): ModelSpec {
  const model = settings.MODEL;
  if (!model) {
    if (settings.ANTHROPIC_API_KEY) return { provider: 'anthropic', name: DEFAULT_ANTHROPIC_MODEL };
    if (settings.OPENAI_API_KEY) return { provider: 'openai', name: DEFAULT_OPENAI_MODEL };
    return { provider: 'baseline', name: '' };
  }
  if (model === 'baseline' || model === 'scripted') return { provider: model, name: '' };
  const match = /^(anthropic|openai)\/(\S+)$/.exec(model);
  if (!match) throw new ModelCallError('MODEL_CONFIG', `unknown MODEL "${model}": use baseline, anthropic/<model> or openai/<model>`);
  return { provider: match[1] as ModelProvider, name: match[2] };
}

/**
 * Makes one model per task context from the validated configuration. Everything that can be wrong
 * (a missing key, a bad script or price table) throws here, at boot, rather than at the first task.
 */
export class ModelFactory {
  readonly spec: ModelSpec;
  private readonly prices: PriceTable;
  private readonly script: readonly ScriptedReply[];

  constructor(
    private readonly settings: ModelSettings,
    private readonly logger: ModelLogger = SILENT_LOGGER,
  ) {
    this.spec = resolveModelSpec(settings);
    this.prices = priceTableFrom(settings.MODEL_PRICES);
    this.script = this.spec.provider === 'scripted' ? loadScript(settings.MODEL_SCRIPT_FILE) : [];
    this.apiKey();
    if ((this.spec.provider === 'anthropic' || this.spec.provider === 'openai') && !priceFor(this.spec.name, this.prices)) {
      logger.warn(
        `no price for ${this.spec.provider}/${this.spec.name} in the price table (MODEL_PRICES): its cost is reported as unknown (null) and COST_LIMIT cannot stop it`,
      );
    }
  }

  /** `anthropic/claude-...`, `openai/...`, `baseline` or `scripted`. */
  get modelName(): string {
    return this.spec.name ? `${this.spec.provider}/${this.spec.name}` : this.spec.provider;
  }

  create(): Model {
    switch (this.spec.provider) {
      case 'baseline':
        return new BaselineModel();
      case 'scripted':
        return new ScriptedModel(this.script);
      case 'anthropic':
        return new AnthropicModel(this.httpOptions(this.settings.ANTHROPIC_BASE_URL));
      case 'openai':
        return new OpenAiModel(this.httpOptions(this.settings.OPENAI_BASE_URL));
    }
  }

  private httpOptions(baseUrl: string | undefined): HttpModelOptions {
    return {
      model: this.spec.name,
      apiKey: this.apiKey(),
      baseUrl,
      maxTokens: this.settings.MODEL_MAX_TOKENS,
      timeoutMs: this.settings.MODEL_TIMEOUT_S * 1000,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: this.settings.MODEL_MAX_RETRIES },
      price: priceFor(this.spec.name, this.prices),
      logger: this.logger,
    };
  }

  // A self-hosted OpenAI-compatible server usually wants no key, but the SDK insists on one.
  private apiKey(): string {
    const { provider } = this.spec;
    if (provider === 'anthropic') return this.settings.ANTHROPIC_API_KEY || missingKey('ANTHROPIC_API_KEY', provider);
    if (provider !== 'openai') return '';
    if (this.settings.OPENAI_API_KEY) return this.settings.OPENAI_API_KEY;
    return this.settings.OPENAI_BASE_URL ? 'no-key' : missingKey('OPENAI_API_KEY', provider);
  }
}

function missingKey(variable: string, provider: string): never {
  throw new ModelCallError('MODEL_CONFIG', `MODEL uses ${provider}, but ${variable} is not set`);
}

function loadScript(file: string | undefined): ScriptedReply[] {
  if (!file) throw new ModelCallError('MODEL_CONFIG', 'MODEL=scripted needs MODEL_SCRIPT_FILE, a JSON array of replies');
  return parseScript(readFileSync(file, 'utf8'), file);
}
