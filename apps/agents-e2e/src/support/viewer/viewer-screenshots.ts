import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

/** Where the README's pictures of the viewer go when the viewer's e2e suite is asked for them (VIEWER_SCREENSHOTS=docs). */
export const SCREENSHOTS_DIR = process.env['VIEWER_SCREENSHOTS'];

/** The three views as a person first sees them: the runs, the comparison, and a task page at its second step. */
export async function saveScreenshots(
  browser: Browser,
  base: string,
  runs: readonly string[],
  task: { run: string; task: string },
  dir: string,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 400 }, deviceScaleFactor: 1 });
  try {
    const shots: string[] = [];
    const shoot = async (name: string): Promise<void> => {
      const path = join(dir, `viewer-${name}.png`);
      await page.screenshot({ path, fullPage: true });
      shots.push(path);
    };
    await page.goto(base);
    await page.locator('table.runs tbody tr').first().waitFor();
    await shoot('runs');
    await page.goto(`${base}#/compare/${runs.join(',')}`);
    await page.locator('table.compare tbody tr').first().waitFor();
    await shoot('compare');
    await page.goto(`${base}#/task/${encodeURIComponent(task.run)}/${encodeURIComponent(task.task)}`);
    await page.locator('rca-trajectory .step').waitFor();
    await page.locator('rca-trajectory button.next').click();
    await shoot('task');
    return shots;
  } finally {
    await page.close();
  }
}
