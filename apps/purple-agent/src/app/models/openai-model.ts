import OpenAI from 'openai';
import { ModelCallError, httpModelError } from './model-errors';
import { costOf } from './model-prices';
import { SILENT_LOGGER, type ChatMessage, type HttpModelOptions, type Model, type ModelReply, type QueryOptions } from './model';
import { withRetries } from './retry-policy';

/** Chat Completions on OpenAI or any compatible server (vLLM, Ollama, a LiteLLM proxy) at `baseUrl`. */
export class OpenAiModel implements Model {
  readonly name: string;
  private readonly client: OpenAI;

  constructor(private readonly options: HttpModelOptions) {
    this.name = `openai/${options.model}`;
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0, timeout: options.timeoutMs });
  }

  async query(messages: readonly ChatMessage[], { signal }: QueryOptions = {}): Promise<ModelReply> {
    const completion = await withRetries(
      () =>
        this.client.chat.completions
          .create(
            { model: this.options.model, max_completion_tokens: this.options.maxTokens, messages: messages.map(({ role, content }) => ({ role, content })) },
            { signal },
          )
          .catch(translateError),
      this.options.retry,
      { signal, logger: this.options.logger ?? SILENT_LOGGER },
    );
    const choice = completion.choices[0];
    // prompt_tokens includes the cached ones; ours excludes them, as Anthropic's does.
    const cacheRead = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    const usage = {
      input: (completion.usage?.prompt_tokens ?? 0) - cacheRead,
      output: completion.usage?.completion_tokens ?? 0,
      cacheRead,
      cacheWrite: 0,
    };
    return {
      content: choice?.message.content ?? '',
      truncated: choice?.finish_reason === 'length',
      usage,
      cost: costOf(usage, this.options.price),
    };
  }
}

function translateError(error: unknown): never {
  if (error instanceof OpenAI.APIUserAbortError) throw new ModelCallError('MODEL_ABORTED', 'the OpenAI call was aborted');
  if (error instanceof OpenAI.APIConnectionTimeoutError) throw new ModelCallError('MODEL_TIMEOUT', 'the OpenAI call timed out', true);
  if (error instanceof OpenAI.APIConnectionError) {
    throw new ModelCallError('MODEL_CONNECTION', `cannot reach the OpenAI API: ${error.cause instanceof Error ? error.cause.message : error.message}`, true);
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    throw httpModelError('OpenAI', error.status, error.message.replace(/^\d{3}\s+/, ''), error.headers);
  }
  throw error;
}
