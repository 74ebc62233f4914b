import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ModelCallError, httpModelError } from './model-errors';
import { costOf } from './model-prices';
import { SILENT_LOGGER, type ChatMessage, type HttpModelOptions, type Model, type ModelReply, type QueryOptions } from './model';
import { withRetries } from './retry-policy';

const EPHEMERAL = { type: 'ephemeral' } as const;
/** User turns marked as cache breakpoints besides the system prompt (the API allows four in all). */
const CACHED_USER_TURNS = 2;

/** Claude through the Messages API, with prompt caching: the whole history is resent every step. */
export class AnthropicModel implements Model {
  readonly name: string;
  private readonly client: Anthropic;

  constructor(private readonly options: HttpModelOptions) {
    this.name = `anthropic/${options.model}`;
    // Retries are ours (withRetries), so that both providers behave and log alike.
    this.client = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0, timeout: options.timeoutMs });
  }

  async query(messages: readonly ChatMessage[], { signal }: QueryOptions = {}): Promise<ModelReply> {
    const { system, turns } = toAnthropicRequest(messages);
    const message = await withRetries(
      () =>
        this.client.messages
          .create({ model: this.options.model, max_tokens: this.options.maxTokens, system, messages: turns }, { signal })
          .catch(translateError),
      this.options.retry,
      { signal, logger: this.options.logger ?? SILENT_LOGGER },
    );
    const usage = {
      input: message.usage.input_tokens,
      output: message.usage.output_tokens,
      cacheRead: message.usage.cache_read_input_tokens ?? 0,
      cacheWrite: message.usage.cache_creation_input_tokens ?? 0,
    };
    return {
      content: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
      truncated: message.stop_reason === 'max_tokens' || message.stop_reason === 'model_context_window_exceeded',
      usage,
      cost: costOf(usage, this.options.price),
    };
  }
}

/**
 * The system prompt as one cached block, the turns with same-role neighbours merged (the API wants
 * them alternating), and cache breakpoints on the latest user turns so that each step reads the
 * previous step's prefix from the cache.
 */
export function toAnthropicRequest(messages: readonly ChatMessage[]): { system: TextBlockParam[]; turns: MessageParam[] } {
  const systemText = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  const merged: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const last = merged.at(-1);
    if (last?.role === message.role) last.text += `\n\n${message.content}`;
    else merged.push({ role: message.role, text: message.content });
  }
  const cachedTurns = new Set(
    merged
      .map((turn, index) => (turn.role === 'user' ? index : -1))
      .filter((index) => index >= 0)
      .slice(-CACHED_USER_TURNS),
  );
  const turns: MessageParam[] = merged.map((turn, index) =>
    cachedTurns.has(index)
      ? { role: turn.role, content: [{ type: 'text', text: turn.text, cache_control: EPHEMERAL }] }
      : { role: turn.role, content: turn.text },
  );
  const system: TextBlockParam[] = systemText ? [{ type: 'text', text: systemText, cache_control: EPHEMERAL }] : [];
  return { system, turns };
}

function translateError(error: unknown): never {
  if (error instanceof Anthropic.APIUserAbortError) throw new ModelCallError('MODEL_ABORTED', 'the Anthropic call was aborted');
  if (error instanceof Anthropic.APIConnectionTimeoutError) throw new ModelCallError('MODEL_TIMEOUT', 'the Anthropic call timed out', true);
  if (error instanceof Anthropic.APIConnectionError) {
    throw new ModelCallError('MODEL_CONNECTION', `cannot reach Anthropic: ${error.cause instanceof Error ? error.cause.message : error.message}`, true);
  }
  if (error instanceof Anthropic.APIError && error.status !== undefined) {
    throw httpModelError('Anthropic', error.status, error.apiMessage ?? error.message, error.headers);
  }
  throw error;
}
