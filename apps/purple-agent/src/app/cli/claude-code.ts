// Claude Code as the solver: `claude -p` with no built-in tool, the task's MCP server as its only tools,
// nothing persisted or reported, and its stream-json events read back. Each flag and variable below is
// named in `claude --help` of the pinned version or read from its bundled code (the variables' names).
import { join } from 'node:path';
import { CodedError } from '@arvo-rca/common';
import { MCP_TOOL_TIMEOUT_MS, type AgentCli, type CliLaunch, type CliLaunchInput } from './agent-cli';
import { ClaudeCodeReader } from './claude-code-reader';

export class ClaudeCodeLaunchError extends CodedError<'AGENT_CLI_LAUNCH'> {}

const KEY = 'ANTHROPIC_API_KEY';
const BASE_URL = 'ANTHROPIC_BASE_URL';

/** The tools the CLI's model is offered: the task server's, as Claude Code names MCP tools. */
export function claudeCodeToolNames(mcpName: string): string[] {
  return [`mcp__${mcpName}__shell`, `mcp__${mcpName}__submit`];
}

// Every variable here is read by the pinned CLI; together with the flags they leave it nothing to do but
// talk to the model and call the task's tools.
const QUIET_ENV: Record<string, string> = {
  // No telemetry, error reporting, auto-update, feedback or release-notes traffic (covers the four below).
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
  DISABLE_INSTALLATION_CHECKS: '1',
  // No memory kept across tasks, no CLAUDE.md read from the folders above the workdir.
  CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
  CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1',
  // No IDE: neither found, connected nor installed into.
  CLAUDE_CODE_AUTO_CONNECT_IDE: 'false',
  CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
  // No background shells, scheduled prompts or file checkpoints (the tools that use them are off as well).
  CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1',
  CLAUDE_CODE_DISABLE_CRON: '1',
  CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING: '1',
  CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  // Tool search would add a `DeferredToolPlaceholder` tool to every request; with it off the model is
  // offered exactly the MCP tools.
  ENABLE_TOOL_SEARCH: 'false',
};

/**
 * Deny rules for the built-in tools, a second lock behind `--tools ""` (a denied tool is not even offered:
 * without `--tools ""` and `--bare` the pinned CLI offers the ones from Agent to Workflow below, and these
 * rules take every one of them away) and a third, `dontAsk`, that refuses any tool not allowed.
 */
const BUILT_IN_TOOLS = [
  ...'Agent Bash Edit EnterWorktree ExitWorktree ListAgents Monitor NotebookEdit Read ReportFindings'.split(' '),
  ...'ScheduleWakeup SendMessage TaskStop WebFetch WebSearch Workflow Write'.split(' '),
  // Older or conditional names of the same kinds of tools.
  ...'Task BashOutput KillShell PowerShell MultiEdit Glob Grep LS TodoWrite Skill SlashCommand LSP'.split(' '),
];

function launch(input: CliLaunchInput): CliLaunch {
  const key = input.env[KEY];
  if (!key) throw new ClaudeCodeLaunchError('AGENT_CLI_LAUNCH', `claude-code needs ${KEY} in the purple agent's environment`);
  const tools = claudeCodeToolNames(input.mcpName);
  const tmp = join(input.home, 'tmp');
  const mcpConfig = join(input.home, '.claude', 'task-mcp.json');
  const settings = join(input.home, '.claude', 'task-settings.json');
  const env: Record<string, string> = {
    ...QUIET_ENV,
    PATH: input.env['PATH'] ?? '/usr/bin:/bin',
    HOME: input.home,
    // Its temporary files and its messaging socket go under TMPDIR (CLAUDE_CODE_TMPDIR first).
    TMPDIR: tmp,
    CLAUDE_CODE_TMPDIR: tmp,
    LANG: input.env['LANG'] ?? 'C.UTF-8',
    [KEY]: key,
  };
  const baseUrl = input.env[BASE_URL];
  if (baseUrl) env[BASE_URL] = baseUrl;
  const reader = new ClaudeCodeReader();
  const server = { type: 'http', url: input.mcpUrl, headers: { Authorization: `Bearer ${input.mcpToken}` }, timeout: MCP_TOOL_TIMEOUT_MS };
  return {
    argv: [
      join(input.packageDir, CLAUDE_CODE.entry),
      '--print', // non-interactive: one prompt, then exit
      '--output-format',
      'stream-json',
      '--verbose', // one JSON event a line (stream-json needs --verbose)
      '--include-partial-messages', // the API's stream events too: each call's usage as it ends
      ...(input.model ? ['--model', input.model] : []), // else the CLI's default model
      '--bare', // no hooks, plugin sync, auto-memory, background prefetches, keychain, CLAUDE.md discovery
      '--mcp-config',
      mcpConfig,
      '--strict-mcp-config', // the task's server only (its token stays out of argv)
      '--tools',
      '', // no built-in tool at all
      '--allowedTools',
      tools.join(','), // the task's tools run without asking
      '--permission-mode',
      'dontAsk', // whatever is not allowed above is denied, never prompted for
      '--settings',
      settings, // the rules below, whatever else is set
      '--setting-sources',
      '', // no user, project or local settings file is read
      '--no-session-persistence', // no transcript to resume from
      '--disable-slash-commands', // no skills or commands
      '--no-chrome',
      '--',
      input.prompt,
    ],
    env,
    files: {
      [mcpConfig]: JSON.stringify({ mcpServers: { [input.mcpName]: server } }),
      [settings]: JSON.stringify({
        permissions: { defaultMode: 'dontAsk', allow: tools, deny: BUILT_IN_TOOLS },
        disableAllHooks: true,
        autoMemoryEnabled: false,
        autoUpdates: false,
        includeCoAuthoredBy: false,
      }),
      // TMPDIR must exist before the start.
      [join(tmp, '.keep')]: '',
    },
    read: (line) => reader.read(line),
  };
}

export const CLAUDE_CODE: AgentCli = {
  name: 'claude-code',
  packageName: '@anthropic-ai/claude-code',
  version: '2.1.332',
  // The package's launcher for installs without install scripts: it runs the platform's native binary as
  // its child (spawnSync), which a signal to the launcher alone leaves running: end the process group.
  entry: 'cli-wrapper.cjs',
  keyVariable: KEY,
  baseUrlVariable: BASE_URL,
  launch,
  // Without the run's earlier lines: the result line's totals, once.
  read: (line) => new ClaudeCodeReader().read(line),
};
