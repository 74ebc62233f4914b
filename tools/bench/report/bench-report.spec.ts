import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTable, tableRows, writeReport, type BenchReport } from './bench-report';

function report(): BenchReport {
  return {
    at: '2026-11-22T10:00:00Z',
    machine: { cpus: 2, node: 'v20.20.2', docker: '20.10.24', load_1m: 1.5 },
    exec_rtt: {
      n: 200,
      full_ms: 61,
      dockerode_ms: 56.7,
      cli_ms: 75.1,
      full_vs_dockerode: 1.08,
      dockerode_vs_cli: 0.75,
      full_p90_ms: 70,
      dockerode_p90_ms: 65,
      cli_p90_ms: 90,
      reply_ms: 79.3,
      reply_p90_ms: 90,
      reply_vs_callback: 1.3,
    },
    a2a_large_message: { megabytes: 3, runs: 7, a2a_ms: 455.6, json_loopback_ms: 327.9, a2a_vs_json: 1.39, copies_back: [4, 3] },
    memory: { output_bytes: 1024 ** 3, rss_growth_mb: 70, rss_growth_max_mb: 80, rss_before_mb: 150, repeats: 3 },
    leftover_containers: [],
  };
}

describe('bench report', () => {
  it('compares each figure with its target: within passes, beyond misses', () => {
    const rows = tableRows(report());

    expect(rows.find((row) => row.figure.includes('full path'))).toMatchObject({ value: '61.0 ms', ratio: 1.08, pass: true });
    expect(rows.find((row) => row.figure.includes('direct dockerode'))).toMatchObject({ ratio: 0.75, pass: true });
    expect(rows.find((row) => row.figure.includes('reply mode'))).toMatchObject({
      value: '79.3 ms',
      target: '≤ 1.2 × callback (full path)',
      ratio: 1.3,
      pass: false,
    });
    expect(rows.find((row) => row.figure.includes('RSS growth'))).toMatchObject({ value: '70.0 MiB', pass: false });
    expect(rows.find((row) => row.figure.includes('through A2A'))).toMatchObject({ value: '455.6 ms', target: '≤ 1.5 × plain JSON', ratio: 1.39, pass: true });
    const reference = rows.find((row) => row.figure.includes('CLI'));
    expect(reference).toMatchObject({ value: '75.1 ms', target: 'reference' });
    expect(reference?.pass).toBeUndefined();
  });

  it('reports a run fetching ahead against its floors, its image disk against the budget, and its prepared starts, each as a pass/fail line', () => {
    const rows = tableRows({
      ...report(),
      fetch_ahead: {
        tasks: 6,
        concurrency: 2,
        window: 2,
        pull_s: 2.56,
        solve_s: 5,
        pulls_alone_s: 15.3,
        solving_alone_s: 15,
        wall_s: 22.2,
        target_s: 20.2,
        original_way_s: 49.9,
        unprepared_wall_s: 22.6,
        peak_image_bytes: 565.3 * 1024 ** 2,
        budget_bytes: 565.3 * 1024 ** 2,
        image_bytes: 141.3 * 1024 ** 2,
        turn_to_first_command_ms: 162,
        unprepared_turn_to_first_command_ms: 469.5,
        prepared_vs_unprepared: 0.345,
      },
    });

    expect(rows.find((row) => row.figure.includes('fetching and preparing 2 ahead'))).toMatchObject({
      value: '22.2 s',
      target: '≤ 1.15 × larger floor + one pull (20.2 s)',
      pass: false,
    });
    expect(rows.find((row) => row.figure.includes("the original's way"))).toMatchObject({ value: '49.9 s', ratio: 22.2 / 49.9 });
    expect(rows.find((row) => row.figure.includes('peak disk'))).toMatchObject({ value: '565.3 MiB', target: '≤ budget + one image (706.6 MiB)', pass: true });
    expect(rows.find((row) => row.figure.includes('prepared ahead (median)'))).toMatchObject({ value: '162.0 ms', ratio: 0.345, pass: false });
  });

  it("reports resume's scan of a record against reading and parsing its files bare, as a ratio", () => {
    const rows = tableRows({
      ...report(),
      resume_scan: { tasks: 1000, runs: 9, result_bytes: 842_000, scan_ms: 96.9, read_parse_ms: 20.3, readdir_ms: 0.7, scan_vs_read_parse: 4.77 },
    });

    expect(rows.find((row) => row.figure.startsWith('1,000-task record'))).toMatchObject({
      figure: expect.stringContaining('(822 KiB)'),
      value: '20.3 ms',
      target: 'reference',
    });
    const scan = rows.find((row) => row.figure.includes("resume's scan"));
    expect(scan).toMatchObject({ value: '96.9 ms', ratio: 4.77 });
    expect(scan?.pass).toBeUndefined();
  });

  it("reports the viewer's first render of a comparison against a static table of the same cells, with its target", () => {
    const viewer_render = {
      tasks: 500,
      runs: 2,
      repeats: 7,
      comparison_ms: 894.6,
      static_table_ms: 373.1,
      comparison_vs_static: 2.4,
      task_page_ms: 700.7,
      trajectory_steps: 100,
    };
    const rows = tableRows({ ...report(), viewer_render });

    expect(rows.find((row) => row.figure.startsWith('static HTML table of 1,000 cells'))).toMatchObject({ value: '373.1 ms', target: 'reference' });
    expect(rows.find((row) => row.figure.includes('500-task comparison of 2 runs'))).toMatchObject({
      value: '894.6 ms',
      target: '≤ 4 × the static table',
      ratio: 2.4,
      pass: true,
    });
    expect(rows.find((row) => row.figure.includes('100-step trajectory'))).toMatchObject({ value: '700.7 ms', target: 'info' });
  });

  it("reports each real tree against tar, and against the original's way as its target (≤ 1.0 ×)", () => {
    const small = {
      task: 'small tree',
      archive_mb: 7,
      tar_ms: 108,
      prepare_to_first_command_ms: 345,
      vs_tar: 3.19,
      original_way_ms: 330,
      original_way_vs_tar: 3.06,
      vs_original_way: 1.05,
      engine_copy_ms: 200,
      engine_copy_vs_tar: 1.85,
      green_full_gcs: 0,
      green_full_gc_ms: 0,
    };
    const large = {
      ...small,
      task: 'large tree',
      tar_ms: 330,
      prepare_to_first_command_ms: 480,
      vs_tar: 1.45,
      vs_original_way: 0.97,
      green_full_gcs: 4,
      green_full_gc_ms: 31.5,
    };
    const rows = tableRows({ ...report(), real_task: { disk: 'machine disk', runs: 5, trees: [small, large] } });

    expect(rows.filter((row) => row.figure.includes('prepare to first command')).map(({ value, target, ratio }) => ({ value, target, ratio }))).toEqual([
      { value: '345.0 ms', target: 'info', ratio: 3.19 },
      { value: '480.0 ms', target: 'info', ratio: 1.45 },
    ]);
    expect(rows.filter((row) => row.figure.includes("the original's way:")).map((row) => [row.value, row.ratio])).toEqual([
      ['330.0 ms', 3.06],
      ['330.0 ms', 3.06],
    ]);
    const gauged = rows.filter((row) => row.target === "≤ 1.0 × the original's way");
    expect(gauged.map(({ value, ratio, pass }) => ({ value, ratio, pass }))).toEqual([
      { value: '1.05 ×', ratio: 1.05, pass: false },
      { value: '0.97 ×', ratio: 0.97, pass: true },
    ]);
    // Information, not a target: what the green agent's collector did over a task.
    expect(rows.filter((row) => row.figure.includes('full garbage collections')).map(({ value, target }) => [value, target])).toEqual([
      ['0, 0.0 ms', 'info'],
      ['4, 31.5 ms', 'info'],
    ]);
  });

  it('names the disk the tree figures ran on', () => {
    const tree = {
      task: 'libarchive',
      archive_mb: 7,
      tar_ms: 53,
      prepare_to_first_command_ms: 80,
      vs_tar: 1.51,
      original_way_ms: 100,
      original_way_vs_tar: 1.89,
      vs_original_way: 0.8,
      engine_copy_ms: 50,
      engine_copy_vs_tar: 0.94,
      green_full_gcs: 1,
      green_full_gc_ms: 8,
    };
    const real_task = { disk: 'fresh journaled ext4 (loop)' as const, runs: 5, trees: [tree] };
    const copy_in = {
      tree: 'libarchive-3.6.2',
      disk: 'machine disk' as const,
      files: 1463,
      megabytes: 27,
      runs: 5,
      prepare_ms: 60,
      bind_ms: 300,
      copy_in_ms: 360,
      copy_in_vs_bind: 1.2,
      engine_copy_ms: 250,
    };
    const rows = tableRows({ ...report(), real_task, copy_in });

    expect(rows.find((row) => row.figure.includes('disk of every tree'))).toMatchObject({ value: 'fresh journaled ext4 (loop)', target: 'info' });
    expect(rows.find((row) => row.figure.includes('disk of the archive'))).toMatchObject({ value: 'machine disk', target: 'info' });
  });

  it('reports each CLI adapter against our agent and over the MCP SDK floor measured between its runs, and its start', () => {
    const figure = {
      ours_ms: 0.8,
      floor_ms: 1.0,
      floor_stateless_ms: 1.9,
      cli_floor_ms: 0.96,
      cli_floor_vs_ours: 1.2,
      stdio_floor_ms: 1.2,
      stdio_floor_vs_ours: 1.5,
      task_server_ms: 1.1,
      start_ms: 2114.4,
      calls: 90,
    };
    const rows = tableRows({
      ...report(),
      cli_step_overhead: {
        steps: 30,
        runs: 3,
        clis: [
          { cli: 'claude-code', version: '2.1.332', step_ms: 1.1, step_vs_ours: 1.38, step_vs_floor: 1.1, step_vs_cli_floor: 1.15, ...figure },
          { cli: 'codex', version: '0.171.0', step_ms: 1.6, step_vs_ours: 2, step_vs_floor: 1.6, step_vs_cli_floor: 1.67, ...figure },
        ],
      },
    });

    expect(rows.find((row) => row.figure.startsWith('claude-code@2.1.332'))).toMatchObject({ value: '0.800 ms', target: 'reference' });
    const adapters = rows.filter((row) => row.figure.includes('its adapter'));
    expect(adapters).toMatchObject([
      { value: '1.100 ms', target: "≤ 1.5 × our agent's", ratio: 1.38, pass: true },
      { value: '1.600 ms', ratio: 2, pass: false },
    ]);
    expect(rows.find((row) => row.figure.includes('MCP SDK floor'))).toMatchObject({ value: '1.000 ms', target: 'floor', ratio: 1.1 });
    expect(rows.find((row) => row.figure.includes('its floor: the same CLI'))).toMatchObject({ value: '0.960 ms', target: 'floor', ratio: 1.2 });
    expect(rows.find((row) => row.figure.includes('its floor: the same CLI'))?.figure).toContain('the adapter is 1.15 × it');
    expect(rows.find((row) => row.figure.includes('on stdio'))).toMatchObject({ value: '1.200 ms', target: 'floor', ratio: 1.5 });
    expect(rows.find((row) => row.figure.includes('MCP server alone'))).toMatchObject({ value: '1.100 ms', target: 'info', ratio: 1 });
    expect(rows.find((row) => row.figure.includes('its start'))).toMatchObject({ value: '2114 ms', target: 'info' });
  });

  it('prints the rows as aligned columns under a header', () => {
    const lines = formatTable(tableRows(report())).split('\n');

    expect(lines[0]).toMatch(/^figure\s+value\s+target\s+ratio\s+pass$/);
    expect(lines.some((line) => /RSS growth.*70\.0 MiB.*< 64 MiB.*1\.09\s+MISS$/.test(line))).toBe(true);
    const valueColumn = lines[0].indexOf('value');
    expect(lines.slice(2).every((line) => line[valueColumn - 1] === ' ' && line[valueColumn] !== ' ')).toBe(true);
  });

  it('writes latest.json only for a run of every figure, and a dated copy always', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-report-'));
    try {
      await writeReport(dir, report(), false);
      expect(await readdir(dir)).toEqual(['bench_2026-11-22T10-00-00Z.json']);

      const written = await writeReport(dir, report(), true);

      expect(written).toEqual([join(dir, 'latest.json'), join(dir, 'bench_2026-11-22T10-00-00Z.json')]);
      expect(JSON.parse(await readFile(join(dir, 'latest.json'), 'utf8'))).toEqual(report());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
