// Gemini CLI as the solver: run headless (`-p`, stream-json), its model reached through the Gemini API at
// GOOGLE_GEMINI_BASE_URL with GEMINI_API_KEY, its only tools the task's MCP server. Settings keys and flags
// are those of the pinned version's bundled code (its config loader, `loadCliConfig`) and docs
// (bundle/docs/reference/configuration.md, cli/headless.md).
import { join } from 'node:path';
import { CodedError } from '@arvo-rca/common';
import { MCP_TOOL_TIMEOUT_MS, type AgentCli, type CliEvent, type CliLaunch, type CliLaunchInput } from './agent-cli';

export class GeminiCliConfigError extends CodedError<'AGENT_CLI_CONFIG'> {}

/**
 * Every built-in tool of the pinned version (its tool registry's names, docs/reference/tools.md). The `tools.core`
 * allowlist already registers none of them; `tools.exclude` denies them once more in the policy engine.
 */
export const GEMINI_BUILTIN_TOOLS: readonly string[] = (
  'run_shell_command read_file read_many_files write_file replace edit glob grep_search ' +
  'search_file_content list_directory web_fetch google_web_search save_memory write_todos ask_user ' +
  'activate_skill get_internal_docs enter_plan_mode exit_plan_mode update_topic complete_task ' +
  'invoke_agent codebase_investigator browser_agent list_mcp_resources read_mcp_resource ' +
  'list_background_processes read_background_output tracker_create_task tracker_update_task ' +
  'tracker_get_task tracker_list_tasks tracker_add_dependency tracker_visualize'
).split(' ');

/** The settings of one task, the user's (`$HOME/.gemini/settings.json`). */
export function geminiSettings(input: CliLaunchInput): Record<string, unknown> {
  return {
    security: {
      auth: { selectedType: 'gemini-api-key' },
      // Off: the working folder counts as trusted, so yolo stays yolo (an untrusted folder falls back to asking).
      folderTrust: { enabled: false },
      enablePermanentToolApproval: false,
    },
    mcpServers: {
      [input.mcpName]: {
        httpUrl: input.mcpUrl,
        headers: { Authorization: `Bearer ${input.mcpToken}` },
        // Its tools run without a confirmation prompt (headless mode has nobody to ask).
        trust: true,
        timeout: MCP_TOOL_TIMEOUT_MS,
      },
    },
    mcp: { allowed: [input.mcpName] },
    // `core` is the allowlist of tools: only the task server's (an MCP tool is `mcp_<server>_<tool>`). It
    // registers no built-in and makes the policy engine deny every tool it does not name.
    // useRipgrep off: the CLI would look for a ripgrep binary for a search tool that is not registered anyway.
    tools: { core: [`mcp_${input.mcpName}_*`], exclude: [...GEMINI_BUILTIN_TOOLS], useRipgrep: false },
    useWriteTodos: false,
    skills: { enabled: false },
    hooksConfig: { enabled: false },
    // GEMINI.md files: none above the working folder is read (the project root is the folder itself).
    context: { memoryBoundaryMarkers: [], loadMemoryFromIncludeDirectories: false },
    telemetry: { enabled: false, logPrompts: false },
    privacy: { usageStatisticsEnabled: false },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      checkpointing: { enabled: false },
      sessionRetention: { enabled: false },
    },
    ide: { enabled: false, hasSeenNudge: true },
    experimental: { autoMemory: false, enableAgents: false, extensionManagement: false },
    admin: { extensions: { enabled: false }, skills: { enabled: false } },
  };
}

export const geminiCli: AgentCli = {
  name: 'gemini-cli',
  packageName: '@google/gemini-cli',
  version: '0.61.0',
  entry: 'bundle/gemini.js',
  keyVariable: 'GEMINI_API_KEY',
  baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',

  launch(input: CliLaunchInput): CliLaunch {
    const key = input.env['GEMINI_API_KEY'];
    if (!key) throw new GeminiCliConfigError('AGENT_CLI_CONFIG', 'Gemini CLI needs GEMINI_API_KEY in the purple agent environment');
    const geminiDir = join(input.home, '.gemini');
    const settings = JSON.stringify(geminiSettings(input), null, 2);
    const env: Record<string, string> = {
      PATH: input.env['PATH'] ?? '/usr/bin:/bin',
      HOME: input.home,
      TMPDIR: join(input.home, 'tmp'),
      LANG: input.env['LANG'] ?? 'C.UTF-8',
      GEMINI_API_KEY: key,
      // The CLI would otherwise start itself again in a child node (to raise its heap limit).
      GEMINI_CLI_NO_RELAUNCH: 'true',
      // In place of /etc/gemini-cli/settings.json and system-defaults.json: files that do not exist, so the
      // host's system settings never apply (a system file is skipped anyway when a parent folder is writable
      // by others, as /tmp is).
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(geminiDir, 'no-system-settings.json'),
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(geminiDir, 'no-system-defaults.json'),
      NO_COLOR: '1',
    };
    const baseUrl = input.env['GOOGLE_GEMINI_BASE_URL'];
    if (baseUrl) env['GOOGLE_GEMINI_BASE_URL'] = baseUrl;
    if (input.model) env['GEMINI_MODEL'] = input.model;
    const reader = new GeminiStreamReader();
    return {
      argv: [
        join(input.packageDir, this.entry),
        // Joined with `=`, so that a prompt starting with a dash is not read as a flag.
        `--prompt=${input.prompt}`,
        '--output-format',
        'stream-json',
        '--approval-mode',
        'yolo',
        '--allowed-mcp-server-names',
        input.mcpName,
        '--extensions',
        'none',
      ],
      env,
      files: {
        [join(geminiDir, 'settings.json')]: settings,
        [join(input.home, 'tmp', '.keep')]: '',
      },
      // The run's own reader: the assistant's text comes in deltas, which `done` carries once joined.
      read: (line) => reader.read(line),
    };
  },

  /** One line on its own: assistant text comes in deltas, and `done` carries no text (a launch's `read` has it). */
  read(line: string): CliEvent[] {
    const reader = new GeminiStreamReader();
    return [...reader.read(line), ...reader.flush()];
  },
};

type Json = Record<string, unknown>;

/**
 * Reads the stream-json events of one run (`init`, `message`, `tool_use`, `tool_result`, `error`, `result`;
 * the CLI's JsonStreamEventType). Assistant deltas are joined into one message per stretch; the final text is
 * the model's text after the last tool call.
 */
export class GeminiStreamReader {
  private pending = '';
  private finalText = '';

  read(line: string): CliEvent[] {
    const event = parse(line);
    if (!event) return [];
    if (event['type'] === 'message' && event['role'] === 'assistant') {
      this.pending += str(event['content']);
      return [];
    }
    const events = this.flush();
    switch (event['type']) {
      case 'init':
        events.push({ kind: 'message', role: 'system', content: `gemini-cli session ${str(event['session_id'])}, model ${str(event['model'])}` });
        break;
      case 'message':
        events.push({ kind: 'message', role: 'user', content: str(event['content']) });
        break;
      case 'tool_use':
        this.finalText = '';
        events.push({ kind: 'message', role: 'assistant', content: `[tool call ${str(event['tool_name'])}] ${JSON.stringify(event['parameters'] ?? {})}` });
        break;
      case 'tool_result':
        this.finalText = '';
        events.push({ kind: 'message', role: 'user', content: toolResult(event) });
        break;
      case 'error':
        events.push({ kind: 'message', role: 'system', content: `[${str(event['severity']) || 'error'}] ${str(event['message'])}` });
        break;
      case 'result': {
        const error = event['error'] as Json | undefined;
        if (error) events.push({ kind: 'message', role: 'system', content: `[${str(error['type']) || 'error'}] ${str(error['message'])}` });
        events.push(...usages(event['stats']), { kind: 'done', text: this.finalText, isError: event['status'] !== 'success' });
        break;
      }
    }
    return events;
  }

  /** The assistant text read since the last other event, as one message. */
  flush(): CliEvent[] {
    if (!this.pending) return [];
    const content = this.pending;
    this.pending = '';
    this.finalText += content;
    return [{ kind: 'message', role: 'assistant', content }];
  }
}

function toolResult(event: Json): string {
  const error = event['error'] as Json | undefined;
  const body = error ? `${str(error['type'])}: ${str(error['message'])}` : str(event['output']);
  return `[tool result ${str(event['status'])}] ${body}`;
}

// `result.stats.models` holds the run's totals per model (input_tokens is the whole prompt, cached the part
// of it read from the cache, input the rest). They come once, at the end: one usage event per model that
// used any (a failed call lists its model with zeros). The
// stream does not say how many calls each covers, so `calls` is 1 (one or more). Thinking tokens are in
// total_tokens but not in output_tokens; they are billed as output, so output is what total adds to the prompt.
function usages(stats: unknown): CliEvent[] {
  const models = (stats as Json | undefined)?.['models'];
  if (typeof models !== 'object' || models === null) return [];
  const used = Object.entries(models as Record<string, Json>).filter(([, tokens]) => num(tokens['total_tokens']) > 0);
  return used.map(([model, tokens]) => {
    const prompt = num(tokens['input_tokens']);
    const cached = num(tokens['cached']);
    const output = Math.max(num(tokens['output_tokens']), num(tokens['total_tokens']) - prompt);
    return { kind: 'usage', usage: { model, input: prompt - cached, output, cacheRead: cached, cacheWrite: 0, cost: null, calls: 1 } };
  });
}

function parse(line: string): Json | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && typeof (value as Json)['type'] === 'string' ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
