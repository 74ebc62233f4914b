import type { Browser } from 'playwright-core';
import type { AssessmentResult } from '@arvo-rca/results';
import { median, round } from '../report/bench-stats';
import { renderTime } from '../figures/viewer-render.bench';
import { launchChromium, StaticPage, ViewerRig } from './viewer-rig';

/** The viewer's page of the run against a static table of the same cells, medians of interleaved loads. */
export interface RunPageFigures {
  run_page_ms: number;
  static_table_ms: number;
  run_page_vs_static: number;
}

const REPEATS = 5;

/**
 * The viewer's page of the run the figure recorded (`#/compare/<its key>`, every task's row), served from
 * the run's folder as `npm run view` serves it, to the first frame with all `tasks` rows, against a
 * static HTML table of the same cells (the task and its score) over loopback; a fresh browser context
 * each time, one round untimed.
 */
export async function measureRunPage(root: string, runsDir: string, result: AssessmentResult): Promise<RunPageFigures> {
  const tasks = Object.keys(result.task_metrics).length;
  let browser: Browser | undefined;
  let viewer: ViewerRig | undefined;
  let page: StaticPage | undefined;
  try {
    viewer = await ViewerRig.start(root, [runsDir]);
    // The warm-up's record is there too: the run's is the one of all the tasks.
    const { runs } = (await (await fetch(new URL('api/runs', viewer.url))).json()) as { runs: { key: string; tasks: number }[] };
    const run = runs.find((summary) => summary.tasks === tasks);
    if (!run) throw new Error(`the viewer found no run of ${tasks} tasks in ${runsDir}: ${JSON.stringify(runs)}`);
    page = await StaticPage.serve(staticTable(result));
    browser = await launchChromium();
    const runPage = `${viewer.url}#/compare/${encodeURIComponent(run.key)}`;
    const times = { run: [] as number[], table: [] as number[] };
    for (let repeat = -1; repeat < REPEATS; repeat += 1) {
      const shown = await renderTime(browser, runPage, 'table.compare tbody tr', tasks);
      const table = await renderTime(browser, page.url, 'table tbody tr', tasks);
      if (repeat < 0) continue;
      times.run.push(shown);
      times.table.push(table);
    }
    return {
      run_page_ms: round(median(times.run), 1),
      static_table_ms: round(median(times.table), 1),
      run_page_vs_static: round(median(times.run) / median(times.table)),
    };
  } finally {
    await browser?.close();
    await viewer?.stop();
    await page?.close();
  }
}

function staticTable(result: AssessmentResult): string {
  const rows = Object.entries(result.task_metrics).map(
    ([task, metrics]) => `<tr><th>${task}</th><td style="background:hsl(60,70%,78%)">${metrics.status}</td></tr>`,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>static</title></head><body><table><thead><tr><th>task</th><th>run</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}
