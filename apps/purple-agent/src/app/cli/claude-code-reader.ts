// Claude Code's `--output-format stream-json --verbose --include-partial-messages` read back as CliEvents.
// Its lines (the pinned CLI's, as its spec records them): `system` (subtype `init` names the model and the
// tools), `assistant` (one per content block of a model message), `user` (tool results), `stream_event`
// (the API's raw stream events, tagged with `api_message_id`) and, last, `result`.
import type { CliEvent, CliModelUsage } from './agent-cli';

interface Block {
  type?: string;
  text?: string;
  name?: string;
  input?: unknown;
  content?: unknown;
  is_error?: boolean;
}

interface ApiUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

interface ModelUsageEntry {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  costUSD?: number;
}

interface Line {
  type?: string;
  subtype?: string;
  model?: string;
  tools?: string[];
  message?: { content?: string | Block[] };
  api_message_id?: string;
  attempt?: number;
  max_retries?: number;
  retry_delay_ms?: number;
  error_status?: number | null;
  error?: string;
  event?: { type?: string; message?: { id?: string; model?: string; usage?: ApiUsage }; usage?: ApiUsage };
  result?: string;
  errors?: string[];
  is_error?: boolean;
  num_turns?: number;
  modelUsage?: Record<string, ModelUsageEntry>;
}

type Tokens = Pick<CliModelUsage, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>;

/**
 * One run's reader. Usage is counted per model call, when its stream's message_delta arrives (its usage is
 * the message's total; message_start's fills what it omits, as the SDK's MessageStream does); the `assistant`
 * lines' usage is message_start's (output 1) and is not read. The `result` line's modelUsage, each model's
 * total over the run, then adds only what the calls seen did not hold (calls the CLI made without
 * streaming them to us); a reader that saw no call at all takes it whole.
 */
export class ClaudeCodeReader {
  private readonly started = new Map<string, { model: string; usage: ApiUsage }>();
  private readonly counted = new Map<string, Tokens & { calls: number }>();

  read(line: string): CliEvent[] {
    let parsed: Line;
    try {
      parsed = JSON.parse(line) as Line;
    } catch {
      return [];
    }
    if (typeof parsed !== 'object' || parsed === null) return [];
    switch (parsed.type) {
      case 'system':
        return system(parsed);
      case 'assistant':
      case 'user': {
        const content = summarise(parsed.message?.content);
        return content ? [{ kind: 'message', role: parsed.type, content }] : [];
      }
      case 'stream_event':
        return this.streamEvent(parsed);
      case 'result': {
        const done: CliEvent = {
          kind: 'done',
          text: parsed.result ?? (parsed.errors ?? [parsed.subtype ?? 'error']).join('; '),
          isError: parsed.is_error === true,
        };
        return [...this.remainder(parsed), done];
      }
      default:
        return [];
    }
  }

  private streamEvent(line: Line): CliEvent[] {
    const event = line.event ?? {};
    if (event.type === 'message_start' && event.message?.id) {
      this.started.set(event.message.id, { model: event.message.model ?? 'unknown', usage: event.message.usage ?? {} });
      return [];
    }
    const start = event.type === 'message_delta' && line.api_message_id ? this.started.get(line.api_message_id) : undefined;
    if (!start || !line.api_message_id) return [];
    this.started.delete(line.api_message_id);
    const last = event.usage ?? {};
    const tokens: Tokens = {
      input: last.input_tokens ?? start.usage.input_tokens ?? 0,
      output: last.output_tokens ?? start.usage.output_tokens ?? 0,
      cacheRead: last.cache_read_input_tokens ?? start.usage.cache_read_input_tokens ?? 0,
      cacheWrite: last.cache_creation_input_tokens ?? start.usage.cache_creation_input_tokens ?? 0,
    };
    return [this.count(start.model, tokens, 1, null)];
  }

  private remainder(line: Line): CliEvent[] {
    const entries = Object.entries(line.modelUsage ?? {});
    const sawCalls = this.counted.size > 0;
    // Seeing no call, the main model (the most prompt tokens) made the num_turns calls of the main loop.
    const prompt = ([, usage]: [string, ModelUsageEntry]) =>
      (usage.inputTokens ?? 0) + (usage.cacheReadInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
    const main = [...entries].sort((a, b) => prompt(b) - prompt(a))[0]?.[0];
    return entries.flatMap(([model, usage]) => {
      const seen = this.counted.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, calls: 0 };
      const rest: Tokens = {
        input: Math.max(0, (usage.inputTokens ?? 0) - seen.input),
        output: Math.max(0, (usage.outputTokens ?? 0) - seen.output),
        cacheRead: Math.max(0, (usage.cacheReadInputTokens ?? 0) - seen.cacheRead),
        cacheWrite: Math.max(0, (usage.cacheCreationInputTokens ?? 0) - seen.cacheWrite),
      };
      if (sawCalls && rest.input + rest.output + rest.cacheRead + rest.cacheWrite === 0) return [];
      if (!sawCalls) return [this.count(model, rest, model === main ? Math.max(1, line.num_turns ?? 1) : 1, usage.costUSD ?? null)];
      // Tokens of a model whose calls were seen are more of those calls' (a retry); another model's, one call.
      return [this.count(model, rest, seen.calls > 0 ? 0 : 1, null)];
    });
  }

  private count(model: string, tokens: Tokens, calls: number, cost: number | null): CliEvent {
    const seen = this.counted.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, calls: 0 };
    this.counted.set(model, {
      input: seen.input + tokens.input,
      output: seen.output + tokens.output,
      cacheRead: seen.cacheRead + tokens.cacheRead,
      cacheWrite: seen.cacheWrite + tokens.cacheWrite,
      calls: seen.calls + calls,
    });
    return { kind: 'usage', usage: { model, ...tokens, cost, calls } };
  }
}

// `init` names the model and the tools; `api_retry` tells of a failed model call the CLI tries again.
function system(line: Line): CliEvent[] {
  if (line.subtype === 'init')
    return [{ kind: 'message', role: 'system', content: `claude-code started: model ${line.model}, tools ${(line.tools ?? []).join(', ')}` }];
  if (line.subtype !== 'api_retry') return [];
  const retry = `model API error ${line.error_status ?? 'without status'} (${line.error ?? 'unknown'}), try ${line.attempt} of ${line.max_retries} again in ${line.retry_delay_ms} ms`;
  return [{ kind: 'message', role: 'system', content: retry }];
}

function summarise(content: string | Block[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .map((block) => {
      if (block.type === 'text') return block.text ?? '';
      if (block.type === 'tool_use') return `[tool call ${block.name}] ${JSON.stringify(block.input ?? {})}`;
      if (block.type === 'tool_result') return `[tool result${block.is_error ? ', error' : ''}] ${summarise(block.content as string | Block[])}`;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}
