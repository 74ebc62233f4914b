import { setTimeout as sleep } from 'node:timers/promises';
import { ModelCallError } from './model-errors';
import type { ChatMessage, Model, ModelReply, QueryOptions } from './model';
import { NO_USAGE, type TokenUsage } from './usage';

/** A reply with its usage and cost, and the time the model "thinks" before giving it (`delayMs`). */
export interface ScriptedFullReply {
  content: string;
  truncated?: boolean;
  usage?: Partial<TokenUsage>;
  cost?: number;
  delayMs?: number;
}

/** One scripted reply: text, or the full reply, or a failure. */
export type ScriptedReply = string | ScriptedFullReply | { error: ModelCallError };

/**
 * Replays a fixed list of replies, one per call, and keeps the conversation it was shown at each
 * call. For tests, and for `MODEL=scripted` with `MODEL_SCRIPT_FILE` in end-to-end runs and the bench
 * (whose stand-in for a real model thinks a fixed time per step: `delayMs`).
 */
export class ScriptedModel implements Model {
  readonly name: string = 'scripted';
  /** The messages of every call, as they were at that call. */
  readonly calls: ChatMessage[][] = [];
  private next = 0;

  constructor(private readonly replies: readonly ScriptedReply[]) {}

  async query(messages: readonly ChatMessage[], options: QueryOptions = {}): Promise<ModelReply> {
    this.calls.push(messages.map((message) => ({ ...message })));
    const reply = this.replies[this.next];
    this.next += 1;
    if (reply === undefined) throw new ModelCallError('MODEL_SCRIPT_EXHAUSTED', `the scripted model has no reply left after ${this.replies.length}`);
    if (typeof reply === 'string') return { content: reply, truncated: false, usage: { ...NO_USAGE }, cost: 0 };
    if ('error' in reply) throw reply.error;
    if (reply.delayMs) await think(reply.delayMs, options.signal);
    return { content: reply.content, truncated: reply.truncated ?? false, usage: { ...NO_USAGE, ...reply.usage }, cost: reply.cost ?? 0 };
  }
}

// A wait the agent's wall-time limit can cut short, as it cuts a real model's call.
async function think(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(delayMs, undefined, { signal });
  } catch {
    throw new ModelCallError('MODEL_ABORTED', `the scripted model's call was aborted ${delayMs} ms think time in`);
  }
}

/** Reads a script file: a JSON array of replies (strings or `{content, truncated?, usage?, cost?, delayMs?}`). */
export function parseScript(json: string, source: string): ScriptedReply[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new ModelCallError('MODEL_CONFIG', `${source}: a model script must be a JSON array of replies`);
  return parsed.map((entry, index) => {
    if (typeof entry === 'string') return entry;
    if (typeof entry === 'object' && entry !== null && typeof (entry as { content?: unknown }).content === 'string') {
      const delayMs = (entry as { delayMs?: unknown }).delayMs;
      if (delayMs !== undefined && !(typeof delayMs === 'number' && Number.isFinite(delayMs) && delayMs >= 0)) {
        throw new ModelCallError('MODEL_CONFIG', `${source}: reply ${index} has a delayMs that is not a number of milliseconds ≥ 0`);
      }
      return entry as ScriptedFullReply;
    }
    throw new ModelCallError('MODEL_CONFIG', `${source}: reply ${index} is neither a string nor an object with a string content`);
  });
}
