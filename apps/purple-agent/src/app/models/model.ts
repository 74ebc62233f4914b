import type { RetryPolicy } from '@arvo-rca/common';
import type { ModelPrice } from './model-prices';
import type { TokenUsage } from './usage';

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ModelReply {
  content: string;
  /** The reply was cut off by the output token limit; the agent must not execute it. */
  truncated: boolean;
  usage: TokenUsage;
  /** USD for this call; null when the model has no known price. */
  cost: number | null;
}

export interface QueryOptions {
  /** Aborts the call, retries included (the agent's wall-time limit). */
  signal?: AbortSignal;
}

/**
 * A language model as the agent sees it: the whole conversation in, one reply out. One instance per
 * task context, so that any client-side state is the context's own. Failures throw a ModelCallError.
 */
export interface Model {
  /** `provider/name`, or `baseline` / `scripted`. */
  readonly name: string;
  query(messages: readonly ChatMessage[], options?: QueryOptions): Promise<ModelReply>;
}

/** Where a model reports what it does besides answering (retries); Nest's Logger fits. */
export interface ModelLogger {
  warn(message: string): void;
}

export const SILENT_LOGGER: ModelLogger = Object.freeze({ warn: () => undefined });

export interface HttpModelOptions {
  /** The provider's model name, without the `provider/` prefix. */
  model: string;
  apiKey: string;
  baseUrl?: string;
  maxTokens: number;
  timeoutMs: number;
  retry: RetryPolicy;
  price?: ModelPrice;
  logger?: ModelLogger;
}
