// Rows of the bench table for the cli_step_overhead figure: each CLI adapter's per-step overhead against our
// own agent's, over the MCP SDK's own floor, and each CLI's start.
import { against, ms, type TableRow } from './bench-rows';
import type { CliStepFigures } from './cli-step.bench';

const STEP_LIMIT = 1.5;

export function cliStepRows(step: CliStepFigures): TableRow[] {
  const rows: TableRow[] = [
    { figure: `our agent's step overhead, in this run (median of ${step.steps} steps × 5 runs)`, value: ms(step.ours_ms, 3), target: 'reference' },
    {
      figure: `  MCP SDK floor: one tools/call of a bare SDK server, a server per request / one session (ratio: the first / ours)`,
      value: `${ms(step.mcp_floor_ms, 3)} / ${ms(step.mcp_floor_stateful_ms, 3)}`,
      target: 'floor',
      ratio: step.mcp_floor_ms / step.ours_ms,
    },
  ];
  for (const cli of step.clis) {
    rows.push(
      against(
        `  ${cli.cli}@${cli.version}: MCP shell call in to its answer out, less the sandbox (median of ${cli.calls} calls)`,
        ms(cli.step_ms, 3),
        `≤ ${STEP_LIMIT} × our agent's`,
        cli.step_vs_ours,
        STEP_LIMIT,
      ),
      { figure: `  ${cli.cli}: start, its spawn to its first model request (median of ${step.runs} runs)`, value: ms(cli.start_ms, 0), target: 'info' },
    );
  }
  return rows;
}
