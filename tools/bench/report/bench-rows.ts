// Rows of the bench table for the A2A, record, real-task, viewer and remote-engine figures, and the helpers every row uses.
import { formatBytes } from '@arvo-rca/common';
import type { FetchAheadFigures } from '../figures/fetch-ahead.bench';
import type { LargeMessageFigures } from '../figures/large-message.bench';
import type { RealTaskFigures, RealTreeFigures } from '../figures/real-task.bench';
import type { RemoteEngineFigures } from '../figures/remote-engine.bench';
import type { ResumeScanFigures } from '../figures/resume-scan.bench';
import type { ViewerRenderFigures } from '../figures/viewer-render.bench';

/** One row of the table: a figure, its value, the target and how the value compares. */
export interface TableRow {
  figure: string;
  value: string;
  target: string;
  /** The measured ratio for a relative target (read it against the target); value / limit for an absolute one (1 is the line). */
  ratio?: number;
  pass?: boolean;
}

export function largeMessageRows(large: LargeMessageFigures): TableRow[] {
  const [send, stream] = large.copies_back;
  return [
    {
      figure: `${large.megabytes} MiB as plain JSON over loopback, same bytes (median of ${large.runs})`,
      value: ms(large.json_loopback_ms),
      target: 'reference',
    },
    against(
      `${large.megabytes} MiB message through A2A: send (${send} back) and stream (${stream} back)`,
      ms(large.a2a_ms),
      '≤ 1.5 × plain JSON',
      large.a2a_vs_json,
      1.5,
    ),
  ];
}

export function resumeScanRows(scan: ResumeScanFigures): TableRow[] {
  const kib = Math.round(scan.result_bytes / 1024);
  return [
    {
      figure: `${scan.tasks.toLocaleString('en')}-task record: its result.json files (${kib} KiB) read with readFileSync and parsed, one by one (median of ${scan.runs})`,
      value: ms(scan.read_parse_ms),
      target: 'reference',
    },
    {
      figure: `  resume's scan of the record (scanRecord + tasksToRun)`,
      value: ms(scan.scan_ms),
      target: 'reported (ratio: × the reference)',
      ratio: scan.scan_vs_read_parse,
    },
    { figure: `  readdir of its tasks folder`, value: ms(scan.readdir_ms, 2), target: 'info' },
  ];
}

export function realTaskRows(real: RealTaskFigures): TableRow[] {
  const tree = (t: RealTreeFigures): TableRow[] => [
    { figure: `${t.task}, ${t.archive_mb} MB archive: tar xzf (median of ${real.runs})`, value: ms(t.tar_ms), target: 'reference' },
    { figure: `  prepare to first command, the green agent's whole task path`, value: ms(t.prepare_to_first_command_ms), target: 'info', ratio: t.vs_tar },
    {
      figure: `  the original's way: that tar, then the container with it bind-mounted, to the first command`,
      value: ms(t.original_way_ms),
      target: 'info',
      ratio: t.original_way_vs_tar,
    },
    against(`  the green agent's whole task path against the original's way`, `${t.vs_original_way} ×`, "≤ 1.0 × the original's way", t.vs_original_way, 1),
    {
      figure: `  the engine alone: tar's tree into a running container, one archive API call (the floor of any copy-in)`,
      value: ms(t.engine_copy_ms),
      target: 'info',
      ratio: t.engine_copy_vs_tar,
    },
    {
      figure: `  full garbage collections in the green agent over one task, and their main-thread time (medians)`,
      value: `${t.green_full_gcs}, ${ms(t.green_full_gc_ms)}`,
      target: 'info',
    },
  ];
  return [...real.trees.flatMap(tree), { figure: `disk of every tree (the green agent's, tar's) and of the engine`, value: real.disk, target: 'info' }];
}

export function viewerRenderRows(render: ViewerRenderFigures): TableRow[] {
  const cells = (render.tasks * render.runs).toLocaleString('en');
  return [
    {
      figure: `static HTML table of ${cells} cells over loopback, to its first frame in Chromium (median of ${render.repeats})`,
      value: ms(render.static_table_ms),
      target: 'reference',
    },
    against(
      `  the viewer: ${render.tasks}-task comparison of ${render.runs} runs, to its first frame`,
      ms(render.comparison_ms),
      '≤ 4 × the static table',
      render.comparison_vs_static,
      4,
    ),
    { figure: `  the viewer: a task page to step 1 of its ${render.trajectory_steps}-step trajectory`, value: ms(render.task_page_ms), target: 'info' },
  ];
}

export function remoteEngineRows(remote: RemoteEngineFigures): TableRow[] {
  return [
    { figure: `exec rtt, sandbox on the local socket (median of ${remote.n})`, value: ms(remote.local_ms), target: 'reference' },
    { figure: `exec rtt, sandbox on an engine over TCP + TLS (${remote.address})`, value: ms(remote.tls_ms), target: 'info', ratio: remote.tls_vs_local },
    {
      figure: `  plain dockerode exec: local socket, TCP + TLS`,
      value: `${ms(remote.local_dockerode_ms)}, ${ms(remote.tls_dockerode_ms)}`,
      target: 'info',
      ratio: remote.tls_dockerode_vs_local,
    },
  ];
}

export function fetchAheadRows(ahead: FetchAheadFigures): TableRow[] {
  const { tasks, concurrency: c, pull_s: pull, solve_s: solve } = ahead;
  const seconds = (value: number): string => `${value.toFixed(1)} s`;
  const peakLimit = ahead.budget_bytes + ahead.image_bytes;
  return [
    { figure: `${tasks} tasks, ${c} at once: one pull ${pull.toFixed(2)} s (throttled registry), solving ${solve} s each`, value: '', target: 'info' },
    { figure: `  floor: the pulls alone, ${tasks} × one pull`, value: seconds(ahead.pulls_alone_s), target: 'floor' },
    { figure: `  floor: the solving alone, ${tasks} × ${solve} s / ${c}`, value: seconds(ahead.solving_alone_s), target: 'floor' },
    against(
      `  the run, fetching and preparing ${ahead.window} ahead`,
      seconds(ahead.wall_s),
      `≤ 1.15 × larger floor + one pull (${seconds(ahead.target_s)})`,
      ahead.wall_s / ahead.target_s,
      1,
    ),
    {
      figure: `  the original's way: pull, then solve, one task after another`,
      value: seconds(ahead.original_way_s),
      target: 'info (ratio: run / this)',
      ratio: ahead.wall_s / ahead.original_way_s,
    },
    { figure: `  the run, fetching ahead without preparing ahead`, value: seconds(ahead.unprepared_wall_s), target: 'info' },
    against(
      `  peak disk of the images pulled, against IMAGE_DISK_BUDGET ${formatBytes(ahead.budget_bytes)}`,
      formatBytes(ahead.peak_image_bytes),
      `≤ budget + one image (${formatBytes(peakLimit)})`,
      ahead.peak_image_bytes / peakLimit,
      1,
    ),
    {
      figure: `  turn to first command, tasks after the first ${c}, without preparing ahead (median)`,
      value: ms(ahead.unprepared_turn_to_first_command_ms),
      target: 'reference',
    },
    against(`  turn to first command, prepared ahead (median)`, ms(ahead.turn_to_first_command_ms), '≤ 0.2 × without', ahead.prepared_vs_unprepared, 0.2),
  ];
}

export function against(figure: string, value: string, target: string, ratio: number, limit: number, strict = false): TableRow {
  return { figure, value, target, ratio, pass: strict ? ratio < limit : ratio <= limit };
}

export function ms(value: number, digits = 1): string {
  return `${value.toFixed(digits)} ms`;
}
