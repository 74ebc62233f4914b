import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliStepFigures } from '../figures/cli-step.bench';
import { cliStepRows } from './cli-step-rows';
import type { ConcurrencyFigures } from '../figures/concurrency.bench';
import type { CopyInFigures } from '../figures/copy-in.bench';
import type { ExecRttFigures } from '../figures/exec-rtt.bench';
import type { FetchAheadFigures } from '../figures/fetch-ahead.bench';
import type { LargeMessageFigures } from '../figures/large-message.bench';
import type { ManyTasksFigures } from '../figures/many-tasks.bench';
import { manyTasksRows } from './many-tasks-rows';
import type { MemoryFigures } from '../figures/memory.bench';
import type { PurpleStepFigures } from '../figures/purple-step.bench';
import type { RealTaskFigures } from '../figures/real-task.bench';
import type { RemoteEngineFigures } from '../figures/remote-engine.bench';
import type { ResumeScanFigures } from '../figures/resume-scan.bench';
import type { ViewerRenderFigures } from '../figures/viewer-render.bench';
import type { StartFigures } from '../figures/start-breakdown.bench';
import type { StartBreakdown } from '@arvo-rca/arvo-docker';
import { against, fetchAheadRows, largeMessageRows, ms, realTaskRows, remoteEngineRows, resumeScanRows, viewerRenderRows, type TableRow } from './bench-rows';

export type { TableRow } from './bench-rows';

/** `logs/bench/latest.json` (docs/bench.md): every key at least, figures of one run. */
export interface BenchReport {
  at: string;
  machine: { cpus: number; node: string; docker: string; load_1m: number };
  exec_rtt?: ExecRttFigures;
  concurrency?: ConcurrencyFigures;
  memory?: MemoryFigures;
  purple_step_overhead?: PurpleStepFigures;
  cli_step_overhead?: CliStepFigures;
  a2a_large_message?: LargeMessageFigures;
  resume_scan?: ResumeScanFigures;
  real_task?: RealTaskFigures;
  viewer_render?: ViewerRenderFigures;
  copy_in?: CopyInFigures;
  starts?: StartFigures;
  remote_engine?: RemoteEngineFigures;
  fetch_ahead?: FetchAheadFigures;
  many_tasks?: ManyTasksFigures;
  /** Containers of the benchmark's green agent still present after it stopped (should be none). */
  leftover_containers: string[];
}

export function tableRows(report: BenchReport): TableRow[] {
  const rows: TableRow[] = [];
  const { exec_rtt: rtt, concurrency: con, memory: mem, purple_step_overhead: step, copy_in: copy, starts } = report;
  if (rtt) {
    rows.push(
      { figure: `exec rtt, docker exec CLI (median of ${rtt.n})`, value: ms(rtt.cli_ms), target: 'reference' },
      against(`exec rtt, direct dockerode`, ms(rtt.dockerode_ms), '≤ 0.8 × CLI', rtt.dockerode_vs_cli, 0.8),
      against(`exec rtt, full path (A2A + green)`, ms(rtt.full_ms), '≤ 1.3 × dockerode', rtt.full_vs_dockerode, 1.3),
      against(`exec rtt, reply mode (the green drives)`, ms(rtt.reply_ms), '≤ 1.2 × callback (full path)', rtt.reply_vs_callback, 1.2),
    );
  }
  if (con) {
    rows.push(
      { figure: `1 task, 20 × sleep 0.1`, value: `${con.single_s.toFixed(2)} s`, target: 'reference' },
      against(`${con.tasks} tasks at once, 20 × sleep 0.1 each`, `${con.parallel_s.toFixed(2)} s`, '≤ 1.5 × one task', con.ratio, 1.5),
      {
        figure: `the same ${con.tasks} × 20 by plain dockerode`,
        value: `${con.parallel_dockerode_s.toFixed(2)} s`,
        target: 'engine limit (ratio: green / this)',
        ratio: con.parallel_vs_dockerode,
      },
      {
        figure: `whole tasks: 1 / ${con.tasks} at once`,
        value: `${con.task_single_s.toFixed(1)} s / ${con.task_parallel_s.toFixed(1)} s`,
        target: 'info',
        ratio: con.task_ratio,
      },
      // Against the bench process's own p99 in the same run: what the machine's scheduling alone costs a Node process.
      against(
        `green event-loop delay p99 (${con.tasks} tasks) / the bench process's`,
        `${ms(con.loop_delay_p99_ms)} / ${ms(con.loop_delay_p99_bench_process_ms)}`,
        "≤ 1.2 × the bench process's",
        con.loop_delay_p99_ms / con.loop_delay_p99_bench_process_ms,
        1.2,
      ),
      {
        figure: `  same, commands only`,
        value: ms(con.loop_delay_p99_commands_ms),
        target: 'info',
      },
    );
  }
  if (mem) rows.push(against(`green RSS growth, 1 GiB of output`, `${mem.rss_growth_mb.toFixed(1)} MiB`, '< 64 MiB', mem.rss_growth_mb / 64, 1, true));
  if (step) {
    rows.push(
      against(`purple step overhead (median of ${step.steps} steps)`, ms(step.median_ms, 3), '≤ 5 ms', step.median_ms / 5, 1),
      against(`purple step ${step.steps} vs step 1`, `${ms(step.last_ms, 3)} / ${ms(step.first_ms, 3)}`, '≤ 2 × step 1', step.last_vs_first, 2),
    );
  }
  if (report.cli_step_overhead) rows.push(...cliStepRows(report.cli_step_overhead));
  if (report.a2a_large_message) rows.push(...largeMessageRows(report.a2a_large_message));
  if (report.resume_scan) rows.push(...resumeScanRows(report.resume_scan));
  if (report.viewer_render) rows.push(...viewerRenderRows(report.viewer_render));
  if (report.real_task) rows.push(...realTaskRows(report.real_task));
  if (copy) {
    rows.push(
      { figure: `${copy.tree}: ${copy.files} files, ${copy.megabytes} MB; extracted on the host`, value: ms(copy.prepare_ms), target: 'info' },
      { figure: `  bind mount: extracted, then started, to first command (median of ${copy.runs})`, value: ms(copy.bind_ms), target: 'reference' },
      against(`  copy-in: started while the host extracts, to first command`, ms(copy.copy_in_ms), '≤ 1.2 × bind mount', copy.copy_in_vs_bind, 1.2),
      { figure: `  engine floor: the tree by one bare archive call into a running container`, value: ms(copy.engine_copy_ms), target: 'info' },
      { figure: `  disk of the archive, the workspaces and the engine`, value: copy.disk, target: 'info' },
    );
  }
  if (starts) rows.push(...startRows(starts));
  if (report.remote_engine) rows.push(...remoteEngineRows(report.remote_engine));
  if (report.fetch_ahead) rows.push(...fetchAheadRows(report.fetch_ahead));
  if (report.many_tasks) rows.push(...manyTasksRows(report.many_tasks));
  return rows;
}

function startRows(starts: StartFigures): TableRow[] {
  const phases = (b: StartBreakdown): string =>
    `image ${b.image}, queue ${b.queue}, create ${b.create}, start ${b.start}, probe ${b.probe}, copy ${b.copy} | git ${b.git}`;
  const pacing = Object.entries(starts.pacing_ms)
    .map(([at, ms]) => `${at}: ${(ms / 1000).toFixed(2)} s`)
    .join(', ');
  return [
    { figure: `1 start alone (median of ${starts.runs}), ms by phase`, value: ms(starts.single.total), target: 'info' },
    { figure: `  ${phases(starts.single)}`, value: '', target: 'info' },
    { figure: `${starts.tasks} starts at once, median start, ms by phase`, value: ms(starts.burst.total), target: 'info' },
    { figure: `  ${phases(starts.burst)}`, value: '', target: 'info' },
    { figure: `engine floor: 1 bare start (create, start, workspace in, 1 command)`, value: ms(starts.engine_single_ms), target: 'engine limit' },
    {
      figure: `engine floor: ${starts.tasks} at once (effective parallelism ${starts.engine_parallelism.toFixed(1)})`,
      value: ms(starts.engine_burst_ms),
      target: 'engine limit',
    },
    against(
      `${starts.tasks} sandboxes ready, adaptive pacing from ${starts.default_pacing} (the default)`,
      ms(starts.burst_ms),
      '≤ 1.2 × engine floor',
      starts.burst_vs_engine,
      1.2,
    ),
    { figure: `  by pacing (best ${starts.best_pacing}): ${pacing}`, value: '', target: 'info' },
  ];
}

/** The table, columns aligned, for the terminal. */
export function formatTable(rows: TableRow[]): string {
  const cells = rows.map((row) => [
    row.figure,
    row.value,
    row.target,
    row.ratio === undefined ? '' : row.ratio.toFixed(2),
    row.pass === undefined ? '' : row.pass ? 'pass' : 'MISS',
  ]);
  const header = ['figure', 'value', 'target', 'ratio', 'pass'];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column].length)));
  const line = (cell: string[]): string =>
    cell
      .map((text, column) => text.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}

/** Writes the report as `<dir>/latest.json` (a full run only) and `<dir>/bench_<time>.json`; returns the paths. */
export async function writeReport(dir: string, report: BenchReport, complete: boolean): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const stamped = join(dir, `bench_${report.at.replace(/[:]/g, '-')}.json`);
  await writeFile(stamped, text);
  if (!complete) return [stamped];
  const latest = join(dir, 'latest.json');
  await writeFile(latest, text);
  return [latest, stamped];
}
