// A coding agent's CLI run unchanged as the solver (AGENT_CLI): what each of the three needs to be installed,
// confined to the task's MCP server and read back. One declaration per CLI (claude-code.ts, codex.ts,
// gemini-cli.ts); the run itself (cli-agent.ts) is the same for all.

/** The CLIs the purple agent can run, as AGENT_CLI names them. */
export const AGENT_CLI_NAMES = ['claude-code', 'codex', 'gemini-cli'] as const;
export type AgentCliName = (typeof AGENT_CLI_NAMES)[number];

/** What one launch of a CLI on one task gets from the run. */
/**
 * How long a CLI waits for one call of the task's tools: past any command's own timeout (the green agent's,
 * 120 s by default), which ends the command first. Claude Code and Codex give up on an MCP call after 60 s
 * of their own unless told otherwise, while the command goes on in the sandbox and the task's next one is refused.
 */
export const MCP_TOOL_TIMEOUT_MS = 15 * 60 * 1000;

export interface CliLaunchInput {
  /** The whole task as the CLI's first (and only) user prompt. */
  prompt: string;
  /** The task's MCP server: Streamable HTTP on loopback, answering only requests bearing `mcpToken`. */
  mcpUrl: string;
  mcpToken: string;
  /** The MCP server's name as the CLI should know it (its tools show as e.g. `mcp__task__shell`). */
  mcpName: string;
  /** A fresh, empty folder for this task only: the CLI's HOME (its settings, sessions, caches). */
  home: string;
  /** A fresh, empty folder for this task only: the CLI's working folder. */
  workdir: string;
  /** The model the CLI is told to use (AGENT_CLI_MODEL); its own default when unset. */
  model?: string;
  /** The package's installed folder (where its package.json is). */
  packageDir: string;
  /** The purple agent's environment: the CLI's key and endpoint variables are read from here. */
  env: Readonly<Record<string, string | undefined>>;
}

/** How to start the CLI: its argv (run with the current node), its whole environment, and files to write first. */
export interface CliLaunch {
  /** Arguments after `node`: the entry script first. */
  argv: string[];
  /** The CLI's entire environment: nothing else of the purple agent's passes through. */
  env: Record<string, string>;
  /** Files to write before the start, by absolute path (settings under HOME, config files). */
  files: Record<string, string>;
  /**
   * This launch's own reader, when reading a line needs the launch (its model) or earlier lines (the final
   * text); when absent, `AgentCli.read`.
   */
  read?: (line: string) => CliEvent[];
}

/** Tokens of one model call, or of several, in the neutral terms of our usage. */
export interface CliModelUsage {
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD when the CLI reported it; null to price it from our table. */
  cost: number | null;
  /** Model calls these tokens cover. */
  calls: number;
}

/** What one line of the CLI's output (its stream-json or JSONL events) says. */
export type CliEvent =
  | { kind: 'message'; role: 'assistant' | 'user' | 'system'; content: string }
  /** Usage of calls made since the last usage event (never a running total). */
  | { kind: 'usage'; usage: CliModelUsage }
  /** The CLI says it has ended its turn, with its final text. */
  | { kind: 'done'; text: string; isError: boolean };

export interface AgentCli {
  name: AgentCliName;
  /** The npm package and its pinned version, installed with install scripts off. */
  packageName: string;
  version: string;
  /** The entry script inside the package folder. */
  entry: string;
  /** The variables holding the provider key (one must be set) and, optionally, its base URL. */
  keyVariable: string;
  baseUrlVariable?: string;
  launch(input: CliLaunchInput): CliLaunch;
  /** Reads one line of stdout; lines that are not events give nothing. */
  read(line: string): CliEvent[];
}
