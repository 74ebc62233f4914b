// Codex CLI's config.toml and model catalog for one task: every built-in tool that reaches the host off, the
// task's MCP server the only tools, nothing kept or sent beyond the model calls. Keys are those the pinned
// version accepts under `--strict-config`; where each comes from is named beside it.

import { MCP_TOOL_TIMEOUT_MS } from './agent-cli';

export interface CodexConfigInput {
  model: string;
  catalogPath: string;
  baseUrl: string;
  keyVariable: string;
  mcpName: string;
  mcpUrl: string;
  mcpTokenVariable: string;
}

/** A TOML basic string: JSON's escapes are TOML's. */
const str = (value: string): string => JSON.stringify(value);

export function codexConfig(input: CodexConfigInput): string {
  return `# Written for one task; see codex-config.ts.
model = ${str(input.model)}
model_provider = "task-model"
# The model's metadata (tools it gets) from our catalog, not the bundled one (codex-config.ts, codexModelCatalog).
model_catalog_json = ${str(input.catalogPath)}
# MCP tools run without asking (approval_policy never); nothing of the host is writable.
approval_policy = "never"
sandbox_mode = "read-only"
web_search = "disabled"
check_for_update_on_startup = false
# No AGENTS.md from the working folder, no host-describing context (cwd, shell, sandbox) in the prompt.
project_doc_max_bytes = 0
include_permissions_instructions = false
include_environment_context = false
include_apps_instructions = false
include_collaboration_mode_instructions = false

[history]
persistence = "none"

[analytics]
enabled = false

[feedback]
enabled = false

# Sub-agents (multi_agent_v1 namespace: spawn_agent, send_input, wait, close_agent).
[agents]
enabled = false

[skills]
include_instructions = false

[tools.experimental_request_user_input]
enabled = false

[tools.update_plan]
enabled = false

# \`codex features list\` of the pinned version names these; each off removes tools or a host side effect.
[features]
shell_tool = false
unified_exec = false
shell_snapshot = false
view_image = false
goals = false
apps = false
plugins = false
remote_plugin = false
skill_search = false
skill_mcp_dependency_install = false
tool_suggest = false
sleep_tool = false
image_generation = false
browser_use = false
computer_use = false
memories = false
hooks = false
daemon_auto_start = false
workspace_dependencies = false
api_key_model_discovery = false

[model_providers.task-model]
name = "task model"
base_url = ${str(input.baseUrl)}
env_key = ${str(input.keyVariable)}
wire_api = "responses"

[mcp_servers.${str(input.mcpName)}]
url = ${str(input.mcpUrl)}
bearer_token_env_var = ${str(input.mcpTokenVariable)}
required = true
tool_timeout_sec = ${MCP_TOOL_TIMEOUT_MS / 1000}
default_tools_approval_mode = "approve"
`;
}

/**
 * A catalog holding only the task's model. The bundled entries of real models turn on tools by model:
 * `apply_patch_tool_type: "freeform"` (a file-writing tool, whatever the features say) and
 * `supports_search_tool` (MCP tools hidden behind a tool_search tool); here neither, and no shell.
 * `base_instructions` is required when a catalog entry is given.
 */
export function codexModelCatalog(model: string): string {
  const entry = {
    slug: model,
    display_name: model,
    description: 'The task model: its only tools are the task MCP server.',
    base_instructions: BASE_INSTRUCTIONS,
    shell_type: 'disabled',
    apply_patch_tool_type: null,
    supports_search_tool: false,
    experimental_supported_tools: [],
    supported_reasoning_levels: [],
    visibility: 'list',
    supported_in_api: true,
    priority: 1,
    support_verbosity: false,
    truncation_policy: { mode: 'tokens', limit: 10000 },
  };
  return JSON.stringify({ models: [entry] }, null, 2);
}

const BASE_INSTRUCTIONS =
  'You are a coding agent working on a task in a sandbox you reach only through your tools. ' +
  'Run commands with the shell tool, read its output, and when the task is done, call submit.';
