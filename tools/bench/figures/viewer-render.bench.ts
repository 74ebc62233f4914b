import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { failedTask, scoreSubmission } from '@arvo-rca/rca-eval';
import type { TaskMetrics } from '@arvo-rca/results';
import type { TaskEvidence } from '@arvo-rca/run-record';
import { BENCH_TRUTH, benchTask, benchTaskIds, writeBenchRecord } from '../rigs/bench-record';
import { median, round } from '../report/bench-stats';
import { launchChromium, StaticPage, ViewerRig } from '../rigs/viewer-rig';

export interface ViewerRenderFigures {
  tasks: number;
  runs: number;
  repeats: number;
  /** Navigation start to the first frame with every row of the comparison in the page: page, modules, the API's scan of both records, the table. */
  comparison_ms: number;
  /** The same for a static HTML table of the same cells, served over loopback. */
  static_table_ms: number;
  comparison_vs_static: number;
  /** A task page to the first frame that shows step 1 of its 100-step trajectory. */
  task_page_ms: number;
  trajectory_steps: number;
}

const TASKS = 500;
const RUNS = 2;
const REPEATS = 7;
const STEPS = 100;
const ANSWERS = [
  JSON.stringify({ locations: [{ file: 'src/decode.c', function: 'decode_dict', line_start: 150, line_end: 160 }] }),
  JSON.stringify({ locations: [{ file: 'src/decode.c', function: 'decode_dict', line_start: 158, line_end: 163 }] }),
  JSON.stringify({ locations: [{ file: 'src/main.c', function: 'main', line_start: 10, line_end: 12 }] }),
];

/**
 * The viewer's time to first render of a 500-task comparison of two runs (synthetic records written by
 * RecordWriter) in Chromium, against a static HTML table of the same 1,000 cells served over loopback;
 * interleaved, a fresh browser context each time, medians. Also a task page with a 100-step trajectory.
 */
export async function measureViewerRender(root: string): Promise<ViewerRenderFigures> {
  const runDir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-viewer-'));
  let browser: Browser | undefined;
  let viewer: ViewerRig | undefined;
  let page: StaticPage | undefined;
  try {
    const ids = await writeRecords(runDir);
    viewer = await ViewerRig.start(root, [runDir]);
    page = await StaticPage.serve(staticTable());
    browser = await launchChromium();
    const comparison = `${viewer.url}#/compare/${ids.join(',')}`;
    const task = `${viewer.url}#/task/${ids[0]}/${encodeURIComponent('arvo:10000')}`;
    const times = { comparison: [] as number[], table: [] as number[], task: [] as number[] };
    // One round untimed: the first loads compile the server's and the browser's code paths.
    for (let repeat = -1; repeat < REPEATS; repeat += 1) {
      const sample = [
        await renderTime(browser, comparison, 'table.compare tbody tr', TASKS),
        await renderTime(browser, page.url, 'table tbody tr', TASKS),
        await renderTime(browser, task, 'rca-trajectory .position', 1),
      ];
      if (repeat < 0) continue;
      times.comparison.push(sample[0]);
      times.table.push(sample[1]);
      times.task.push(sample[2]);
    }
    return {
      tasks: TASKS,
      runs: RUNS,
      repeats: REPEATS,
      comparison_ms: round(median(times.comparison), 1),
      static_table_ms: round(median(times.table), 1),
      comparison_vs_static: round(median(times.comparison) / median(times.table)),
      task_page_ms: round(median(times.task), 1),
      trajectory_steps: STEPS,
    };
  } finally {
    await browser?.close();
    await viewer?.stop();
    await page?.close();
    await rm(runDir, { recursive: true, force: true });
  }
}

// The page's globals the probe reads (the tools' tsconfig has no DOM library).
interface PageGlobals {
  document: { querySelectorAll(selector: string): { length: number } };
  performance: { now(): number };
}

/** Milliseconds from navigation start to the first animation frame in which `count` elements match. */
export async function renderTime(browser: Browser, url: string, selector: string, count: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    // Run in the page at every animation frame (a function: the viewer's policy forbids eval of strings).
    const probe = (wanted: { selector: string; count: number }): number | false => {
      const { document, performance } = globalThis as unknown as PageGlobals;
      return document.querySelectorAll(wanted.selector).length >= wanted.count ? performance.now() : false;
    };
    const shown = await page.waitForFunction(probe, { selector, count }, { polling: 'raf', timeout: 60_000 });
    return (await shown.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

async function writeRecords(runDir: string): Promise<string[]> {
  const taskIds = benchTaskIds(TASKS);
  const trajectory = join(runDir, 'trajectories', 'bench.traj.json');
  await mkdir(join(runDir, 'trajectories'), { recursive: true });
  await writeFile(trajectory, trajectoryText(STEPS));
  const ids: string[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const writer = await writeBenchRecord(runDir, taskIds, `model-${run + 1}`, (taskId, index) =>
      benchTask(taskId, metricsOf(index + run), evidenceOf(trajectory)),
    );
    ids.push(writer.id);
  }
  return ids;
}

function metricsOf(index: number): TaskMetrics {
  return index % 17 === 0 ? failedTask('pulling the image failed', BENCH_TRUTH) : scoreSubmission(ANSWERS[index % ANSWERS.length], BENCH_TRUTH);
}

function evidenceOf(trajectory: string): TaskEvidence {
  return {
    crashReport: 'ERROR: AddressSanitizer: heap-buffer-overflow',
    fix: null,
    submission: null,
    sources: null,
    trajectory: { path: trajectory },
    log: null,
  };
}

/** mini-swe-agent's layout, each step with a thought, a command and 2 KB of output. */
function trajectoryText(steps: number): string {
  const messages = [
    { role: 'system', content: 'You are a root-cause analyst.' },
    { role: 'user', content: 'Find the root cause of the crash.' },
  ];
  const output = 'x'.repeat(2000);
  for (let step = 1; step <= steps; step += 1) {
    messages.push({ role: 'assistant', content: `THOUGHT: look at part ${step}.\n\n\`\`\`bash\nsed -n ${step}p src/decode.c\n\`\`\`` });
    messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\n${output}\n</output>` });
  }
  const model_calls = Array.from({ length: steps }, () => ({ input: 4000, output: 120, cache_read: 3500, cache_write: 0, cost: 0.003, truncated: false }));
  return JSON.stringify({
    info: { exit_status: 'Submitted', model_stats: { instance_cost: 0.3, api_calls: steps }, model_calls, commands: [] },
    messages,
    trajectory_format: 'mini-swe-agent-1',
  });
}

/** The comparison's cells as a plain table: a task and two scores per row. */
function staticTable(): string {
  const rows = Array.from(
    { length: TASKS },
    (_, index) => `<tr><th>arvo:${10_000 + index}</th><td style="background:hsl(60,70%,78%)">0.50</td><td style="background:hsl(120,70%,78%)">1.00</td></tr>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>static</title></head><body><table><thead><tr><th>task</th><th>run 1</th><th>run 2</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}
