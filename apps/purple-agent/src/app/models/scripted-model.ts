import { ModelCallError } from './model-errors';
import type { ChatMessage, Model, ModelReply, QueryOptions } from './model';
import { NO_USAGE, type TokenUsage } from './usage';

/** One scripted reply: text, or the full reply with usage and cost, or a failure. */
export type ScriptedReply = string | { content: string; truncated?: boolean; usage?: Partial<TokenUsage>; cost?: number } | { error: ModelCallError };

/**
 * Replays a fixed list of replies, one per call, and keeps the conversation it was shown at each
 * call. For tests, and for `MODEL=scripted` with `MODEL_SCRIPT_FILE` in end-to-end runs.
 */
export class ScriptedModel implements Model {
  readonly name: string = 'scripted';
  /** The messages of every call, as they were at that call. */
  readonly calls: ChatMessage[][] = [];
  private next = 0;

  constructor(private readonly replies: readonly ScriptedReply[]) {}

  async query(messages: readonly ChatMessage[], _options?: QueryOptions): Promise<ModelReply> {
    this.calls.push(messages.map((message) => ({ ...message })));
    const reply = this.replies[this.next];
    this.next += 1;
    if (reply === undefined) throw new ModelCallError('MODEL_SCRIPT_EXHAUSTED', `the scripted model has no reply left after ${this.replies.length}`);
    if (typeof reply === 'string') return { content: reply, truncated: false, usage: { ...NO_USAGE }, cost: 0 };
    if ('error' in reply) throw reply.error;
    return { content: reply.content, truncated: reply.truncated ?? false, usage: { ...NO_USAGE, ...reply.usage }, cost: reply.cost ?? 0 };
  }
}

/** Reads a script file: a JSON array of replies (strings or `{content, truncated?, usage?, cost?}`). */
export function parseScript(json: string, source: string): ScriptedReply[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new ModelCallError('MODEL_CONFIG', `${source}: a model script must be a JSON array of replies`);
  return parsed.map((entry, index) => {
    if (typeof entry === 'string') return entry;
    if (typeof entry === 'object' && entry !== null && typeof (entry as { content?: unknown }).content === 'string') {
      return entry as { content: string };
    }
    throw new ModelCallError('MODEL_CONFIG', `${source}: reply ${index} is neither a string nor an object with a string content`);
  });
}
