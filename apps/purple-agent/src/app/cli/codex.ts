// Codex CLI (`@openai/codex`) as the solver: `codex exec --json`, its model reached through a custom provider
// speaking the Responses API, the task's MCP server its only tools. The npm package is a node launcher that
// execs the native binary of the optional platform package (`@openai/codex-linux-x64` ...), which an install
// with scripts off and `--omit=dev` still brings.
import { join } from 'node:path';
import type { AgentCli, CliEvent, CliLaunch, CliLaunchInput } from './agent-cli';
import { codexConfig, codexModelCatalog } from './codex-config';

/** The model when AGENT_CLI_MODEL names none. */
export const CODEX_DEFAULT_MODEL = 'gpt-5.5';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** The variable the config names (`bearer_token_env_var`) for the MCP server's token. */
const MCP_TOKEN_VARIABLE = 'CODEX_TASK_MCP_TOKEN';

export const codex: AgentCli = {
  name: 'codex',
  packageName: '@openai/codex',
  version: '0.171.0',
  entry: 'bin/codex.js',
  keyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
  launch: launchCodex,
  // Line by line without the run's context: the default model, no final text. A launch's own `read` has both.
  read: (line) => new CodexReader(CODEX_DEFAULT_MODEL).read(line),
};

function launchCodex(input: CliLaunchInput): CliLaunch {
  const codexHome = join(input.home, '.codex');
  const model = input.model ?? CODEX_DEFAULT_MODEL;
  const catalogPath = join(codexHome, 'model-catalog.json');
  const config = codexConfig({
    model,
    catalogPath,
    baseUrl: input.env['OPENAI_BASE_URL'] || DEFAULT_BASE_URL,
    keyVariable: 'OPENAI_API_KEY',
    mcpName: input.mcpName,
    mcpUrl: input.mcpUrl,
    mcpTokenVariable: MCP_TOKEN_VARIABLE,
  });
  const tmp = join(input.home, 'tmp');
  const env: Record<string, string> = {
    PATH: input.env['PATH'] ?? '/usr/bin:/bin',
    HOME: input.home,
    CODEX_HOME: codexHome,
    TMPDIR: tmp,
    LANG: input.env['LANG'] ?? 'C.UTF-8',
    OPENAI_API_KEY: input.env['OPENAI_API_KEY'] ?? '',
    [MCP_TOKEN_VARIABLE]: input.mcpToken,
  };
  const reader = new CodexReader(model);
  return {
    // --json: JSONL events on stdout; --ephemeral: no session files; --strict-config: a key this version does
    // not know fails the start instead of being ignored; --ignore-rules: no execpolicy files of the host;
    // -C: the working root; `--` so that a prompt starting with `-` is not read as a flag.
    argv: [
      join(input.packageDir, codex.entry),
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--ephemeral',
      '--strict-config',
      '--ignore-rules',
      '--color',
      'never',
      '-C',
      input.workdir,
      '--',
      input.prompt,
    ],
    env,
    files: {
      [join(codexHome, 'config.toml')]: config,
      [catalogPath]: codexModelCatalog(model),
      [join(tmp, '.keep')]: '',
    },
    read: (line) => reader.read(line),
  };
}

interface ExecItem {
  type?: string;
  text?: string;
  message?: string;
  server?: string;
  tool?: string;
  arguments?: unknown;
  result?: { content?: Array<{ type?: string; text?: string }> } | null;
  error?: { message?: string } | null;
}

interface ExecEvent {
  type?: string;
  item?: ExecItem;
  usage?: { input_tokens?: number; cached_input_tokens?: number; cache_write_input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
  message?: string;
}

/**
 * Reads `codex exec --json` (thread.started, turn.started, item.started/completed, turn.completed with the
 * turn's usage, turn.failed, error). The usage of `turn.completed` is the sum over the turn's model calls, and
 * `codex exec` runs one turn, so it is counted once. The final text is the last agent message of the turn.
 */
export class CodexReader {
  private lastText = '';

  constructor(private readonly model: string) {}

  read(line: string): CliEvent[] {
    let event: ExecEvent;
    try {
      event = JSON.parse(line) as ExecEvent;
    } catch {
      return [];
    }
    if (typeof event !== 'object' || event === null) return [];
    if (event.type === 'item.completed' && event.item) return this.item(event.item);
    if (event.type === 'turn.completed') {
      const usage = event.usage ?? {};
      const cacheRead = usage.cached_input_tokens ?? 0;
      const cacheWrite = usage.cache_write_input_tokens ?? 0;
      // input_tokens counts the whole prompt, cached tokens included (Responses API usage).
      const input = Math.max(0, (usage.input_tokens ?? 0) - cacheRead - cacheWrite);
      return [
        { kind: 'usage', usage: { model: this.model, input, output: usage.output_tokens ?? 0, cacheRead, cacheWrite, cost: null, calls: 1 } },
        { kind: 'done', text: this.lastText, isError: false },
      ];
    }
    if (event.type === 'turn.failed') return [{ kind: 'done', text: event.error?.message ?? 'the turn failed', isError: true }];
    if (event.type === 'error') return [{ kind: 'message', role: 'system', content: event.message ?? '' }];
    return [];
  }

  private item(item: ExecItem): CliEvent[] {
    if (item.type === 'agent_message') {
      this.lastText = item.text ?? '';
      return [{ kind: 'message', role: 'assistant', content: this.lastText }];
    }
    if (item.type === 'mcp_tool_call') {
      const call = `${item.server ?? ''}.${item.tool ?? ''}(${JSON.stringify(item.arguments ?? {})})`;
      const answer = item.error?.message ?? (item.result?.content ?? []).map((part) => part.text ?? '').join('\n');
      return [
        { kind: 'message', role: 'assistant', content: call },
        { kind: 'message', role: 'user', content: answer },
      ];
    }
    if (item.type === 'error') return [{ kind: 'message', role: 'system', content: item.message ?? '' }];
    return [];
  }
}
