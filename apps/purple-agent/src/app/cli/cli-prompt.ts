// What a CLI agent is told: the task as the green agent sent it, and how its tools reach the task. The rest
// (how to explore, what a root cause is) is the CLI's own way of working: it runs unchanged.
import { LOC_JSON_PATH } from '@arvo-rca/common';
import { MAX_SPAN_LINES, WANTED_LOCATIONS } from '@arvo-rca/loc-json';
import { TASK_MCP_NAME } from './task-mcp-server';

export function cliPrompt(description: string): string {
  return `<task>
${description}
</task>

<instructions>
The task's files are in a sandbox you reach only through the tools of the \`${TASK_MCP_NAME}\` MCP server:
- \`shell\` runs one bash command there, in a new shell with /workspace as the working directory, and shows its returncode and output. Nothing interactive; long outputs are cut, so read selectively (grep, head, sed -n 'A,Bp').
- \`submit\` hands in your answer and ends the task.
The task text above may describe \`execute:\` messages and a \`[TASK FINISHED]\` message: those are sent for you.

Write ${LOC_JSON_PATH} (with the shell tool) holding up to ${WANTED_LOCATIONS} candidate root-cause locations, best first, each one function and a line range of at most ${MAX_SPAN_LINES} lines, \`file\` being the path inside /workspace/src-vul:

{"reasoning": "why these places", "locations": [{"file": "project/src/file.c", "function": "name", "line_start": 10, "line_end": 42, "description": "what is wrong there"}]}

Then call \`submit\`. You cannot continue working after you submit.
</instructions>`;
}
