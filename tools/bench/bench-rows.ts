// Rows of the bench table for the A2A, record, real-task, viewer and remote-engine figures, and the helpers every row uses.
import type { LargeMessageFigures } from './large-message.bench';
import type { RealTaskFigures, RealTreeFigures } from './real-task.bench';
import type { RemoteEngineFigures } from './remote-engine.bench';
import type { ResumeScanFigures } from './resume-scan.bench';
import type { ViewerRenderFigures } from './viewer-render.bench';

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
    against(`  prepare to first command, the green agent's whole task path`, ms(t.prepare_to_first_command_ms), '≤ 1.5 × tar', t.vs_tar, 1.5),
    {
      figure: `  the original's way: that tar, then the container with it bind-mounted, to the first command`,
      value: ms(t.original_way_ms),
      target: 'info',
      ratio: t.original_way_vs_tar,
    },
    { figure: `  the green agent's whole task path against the original's way`, value: `${t.vs_original_way} ×`, target: 'info' },
    {
      figure: `  the engine alone: tar's tree into a running container, one archive API call (the floor of any copy-in)`,
      value: ms(t.engine_copy_ms),
      target: 'info',
      ratio: t.engine_copy_vs_tar,
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

export function against(figure: string, value: string, target: string, ratio: number, limit: number, strict = false): TableRow {
  return { figure, value, target, ratio, pass: strict ? ratio < limit : ratio <= limit };
}

export function ms(value: number, digits = 1): string {
  return `${value.toFixed(digits)} ms`;
}
