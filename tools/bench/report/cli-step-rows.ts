// Rows of the bench table for the cli_step_overhead figure: each CLI adapter's per-step overhead against our
// own agent's, over the CLI's own floor (the same CLI against a bare MCP server) and the MCP SDK's, all
// measured between the CLI's runs, and each CLI's start.
import { against, ms, type TableRow } from './bench-rows';
import type { CliStepFigures } from '../figures/cli-step.bench';

const STEP_LIMIT = 1.5;

export function cliStepRows(step: CliStepFigures): TableRow[] {
  return step.clis.flatMap((cli) => [
    {
      figure: `${cli.cli}@${cli.version}: our agent's step overhead between its runs (median of ${step.runs} × ${step.steps} steps)`,
      value: ms(cli.ours_ms, 3),
      target: 'reference',
    },
    against(
      `  its adapter: MCP shell call in to its answer out, less the sandbox (median of ${cli.calls} calls)`,
      ms(cli.step_ms, 3),
      `≤ ${STEP_LIMIT} × our agent's`,
      cli.step_vs_ours,
      STEP_LIMIT,
    ),
    {
      figure: `  its floor: the same CLI and script against a bare McpServer whose tools answer at once, on the same transport (ratio: × our agent's; the adapter is ${cli.step_vs_cli_floor} × it)`,
      value: ms(cli.cli_floor_ms, 3),
      target: 'floor',
      ratio: cli.cli_floor_vs_ours,
    },
    {
      figure: `  the nearest alternative's floor: the same bare server on stdio, a child of the CLI (ratio: × our agent's)`,
      value: ms(cli.stdio_floor_ms, 3),
      target: 'floor',
      ratio: cli.stdio_floor_vs_ours,
    },
    {
      figure: `  MCP SDK floor: a bare SDK server's tools/call in one session (a server per request: ${ms(cli.floor_stateless_ms, 3)}; ratio: adapter / floor)`,
      value: ms(cli.floor_ms, 3),
      target: 'floor',
      ratio: cli.step_vs_floor,
    },
    {
      figure: `  the task's MCP server alone, its tools answering at once, called as the floor is (ratio: adapter / this)`,
      value: ms(cli.task_server_ms, 3),
      target: 'info',
      ratio: cli.step_ms / cli.task_server_ms,
    },
    { figure: `  its start: spawn to its first model request (median of ${step.runs} runs)`, value: ms(cli.start_ms, 0), target: 'info' },
  ]);
}
