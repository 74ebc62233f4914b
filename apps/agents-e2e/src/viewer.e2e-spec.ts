import { randomUUID } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { FakeLlmServer, httpError, reply } from '@arvo-rca/fake-llm';
import type { PairedComparison } from '@arvo-rca/results';
import { compareRecords, RECORDS_FOLDER, recordResult, scanRecord, type RecordScan, type SourcesFile } from '@arvo-rca/run-record';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { describeWithChromium, launchChromium, rgbOf } from './support/viewer/chromium';
import { saveScreenshots, SCREENSHOTS_DIR } from './support/viewer/viewer-screenshots';
import { ViewerProcess } from './support/viewer/viewer-process';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

// The scripted model, task by task (one at a time, so its replies are taken in this order): the fix's
// first hunk for samples 1, 3 and 5 (sample 3 after a grep), half of it and more for sample 4, and for
// sample 2 a provider error after the first step, so that it ends without an answer.
const ANSWERS: Record<string, { file: string; function: string; line_start: number; line_end: number } | 'provider error'> = {
  'sample:1': { file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70 },
  'sample:2': 'provider error',
  'sample:3': { file: 'src/value.c', function: 'ini_unescape', line_start: 109, line_end: 114 },
  'sample:4': { file: 'src/decode.c', function: 'decode_dict', line_start: 158, line_end: 175 },
  'sample:5': { file: 'src/image.c', function: 'rz_image_create', line_start: 3, line_end: 22 },
};

// What the suite reads of the page's DOM inside the browser (its tsconfig has no DOM library).
interface PageElement {
  textContent: string | null;
  children: ArrayLike<PageElement>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
}

interface BrowserWindow {
  getComputedStyle(element: PageElement): { backgroundColor: string };
}

interface Runs {
  baseline: RecordScan;
  model: RecordScan;
}

describeWithDocker('the viewer in Chromium, on the run records of two real assessments', () => {
  describeWithChromium('a baseline run and a scripted model, both agents as real processes', () => {
    const scratch = new Scratch();
    let llm: FakeLlmServer;
    let agents: AgentProcess[] = [];
    let viewer: ViewerProcess;
    let browser: Browser;
    let page: Page;
    let runs: Runs;

    beforeAll(async () => {
      llm = await FakeLlmServer.start({ apiKey: 'sk-test' });
      llm.script(...SAMPLES.flatMap(scriptFor));
      const [greenPort, baselinePort, modelPort] = [await freePort(), await freePort(), await freePort()];
      const env = { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: `http://127.0.0.1:${baselinePort}/` };
      agents = await Promise.all([
        startAgent('green-agent', env, greenPort),
        startAgent('purple-agent', { ...env, MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' }, baselinePort),
        startAgent('purple-agent', { ...env, MODEL: 'openai/gpt-4.1', OPENAI_BASE_URL: llm.openAiBaseUrl, OPENAI_API_KEY: 'sk-test' }, modelPort),
      ]);
      const [green, baseline, model] = agents;
      await assess(green, baseline, 2);
      await assess(green, model, 1);
      runs = await readRuns(scratch.runDir);
      // The trajectories travel with the record: the viewer needs none of the purple agents' own files.
      rmSync(join(scratch.runDir, 'trajectories'), { recursive: true });
      viewer = await ViewerProcess.start([scratch.runDir]);
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    });

    afterAll(async () => {
      await browser?.close();
      await viewer?.stop();
      await Promise.all(agents.map((agent) => agent.stop()));
      await llm?.close();
      scratch.remove();
    });

    it('lists both runs: solver and model, tasks, means, cost and time', async () => {
      await page.goto(viewer.url);
      const rows = page.locator('table.runs tbody tr');
      // The page fills its table from the API after it loads: on a busy machine, after `goto` returns.
      await rows.nth(1).waitFor();

      await expect(rows.count()).resolves.toBe(2);
      const baseline = page.locator(`tr[data-run="${runs.baseline.assessment.id}"]`);
      const model = page.locator(`tr[data-run="${runs.model.assessment.id}"]`);
      await expect(baseline.locator('td').nth(4).textContent()).resolves.toBe('baseline');
      await expect(model.locator('td').nth(4).textContent()).resolves.toBe('openai/gpt-4.1');
      await expect(baseline.locator('td').nth(5).textContent()).resolves.toBe('5 of 5, 5 scored');
      await expect(model.locator('td').nth(5).textContent()).resolves.toBe('5 of 5, 4 scored');
      await expect(baseline.locator('td[data-score="line_iou"] .mean').textContent()).resolves.toBe(
        recordResult(runs.baseline.assessment, runs.baseline.done).line_iou_mean.toFixed(2),
      );
      await expect(model.locator('td[data-score="line_iou"] .mean').textContent()).resolves.toBe(
        recordResult(runs.model.assessment, runs.model.done).line_iou_mean.toFixed(2),
      );
      // The root cause's line IoU beside the original's: the same on the samples, whose fixes change code only.
      await expect(model.locator('td[data-score="rc_line_iou"] .mean').textContent()).resolves.toBe(
        recordResult(runs.model.assessment, runs.model.done).rc_line_iou_mean.toFixed(2),
      );
      await expect(model.locator('td').nth(12).textContent()).resolves.toMatch(/^\d+(\.\d)? s$/);
    });

    it("shows each mean's 95% interval under it, as the record's Result gives it", async () => {
      await page.goto(viewer.url);
      await page.locator('table.runs tbody tr').nth(1).waitFor();

      for (const [scan, name] of [
        [runs.model, 'line_iou'],
        [runs.model, 'file_acc'],
        [runs.baseline, 'func_recall'],
      ] as const) {
        const { confidence, ...means } = recordResult(scan.assessment, scan.done);
        const interval = confidence.intervals[`${name}_mean`];
        const cell = page.locator(`tr[data-run="${scan.assessment.id}"] td[data-score="${name}"]`);
        await expect(cell.locator('.interval').textContent()).resolves.toBe(`${interval?.[0].toFixed(2)}–${interval?.[1].toFixed(2)}`);
        expect(interval?.[0]).toBeLessThanOrEqual(means[`${name}_mean`]);
      }
    });

    it('compares the runs task by task: each cell the line IoU, coloured by it, or the status when not scored', async () => {
      await openComparison(page, viewer.url, runs);

      await expect(page.locator('.controls').textContent()).resolves.toContain('best overlap (IoU)');
      // Newest first, as the runs table lists them: the model's run, then the baseline's.
      const expected = SAMPLES.map((task) => [task, cellText(runs.model, task), cellText(runs.baseline, task)]);
      expect(await tableCells(page)).toEqual(expected);
      expect(expected.map((row) => row[1])).toEqual(['1.00', 'no submission', '1.00', expect.stringMatching(/^0\.[1-9]\d$/), '1.00']);
      expect(expected[0][2]).toBe('0.00');

      const perfect = rgbOf(await cellColour(page, 'sample:1', 0));
      const missed = rgbOf(await cellColour(page, 'sample:1', 1));
      const partial = rgbOf(await cellColour(page, 'sample:4', 0));
      const unscored = rgbOf(await cellColour(page, 'sample:2', 0));
      expect(perfect.g - perfect.r).toBeGreaterThan(60);
      expect(missed.r - missed.g).toBeGreaterThan(60);
      expect(partial.g - partial.r).toBeLessThan(perfect.g - perfect.r);
      expect(partial.g - partial.r).toBeGreaterThan(missed.g - missed.r);
      expect(Math.max(unscored.r, unscored.g, unscored.b) - Math.min(unscored.r, unscored.g, unscored.b)).toBeLessThan(12);
    });

    it("filters the tasks by status and sorts them by a run's score", async () => {
      await openComparison(page, viewer.url, runs);

      await page.getByLabel('no submission').check();
      expect((await tableCells(page)).map((row) => row[0])).toEqual(['sample:2']);
      await page.getByLabel('no submission').uncheck();

      await page.locator('table.compare thead th[data-column="0"]').click();
      await expect(page.locator('table.compare thead th[data-column="0"]').getAttribute('aria-sort')).resolves.toBe('descending');
      expect((await tableCells(page)).map((row) => row[0])).toEqual(['sample:1', 'sample:3', 'sample:5', 'sample:4', 'sample:2']);
      await page.locator('table.compare thead th[data-column="0"]').click();
      expect((await tableCells(page)).map((row) => row[0])).toEqual(['sample:2', 'sample:4', 'sample:1', 'sample:3', 'sample:5']);
    });

    it('pairs the two runs: per metric B − A with its interval, McNemar on the top-k hits, and the tasks that score differently', async () => {
      await openComparison(page, viewer.url, runs);
      const section = page.locator('section.paired');
      await section.locator('table.paired').waitFor();

      // The comparison lists the newest run first: the model's run is A, the baseline's B.
      const expected = compareRecords(runs.model, runs.baseline);
      await expect(section.locator('p').first().textContent()).resolves.toMatch(/^A openai\/gpt-4\.1 \(.*\) · B baseline \(/);
      expect(await metricRow(page, 'line_iou')).toEqual(cellsOf(expected, 'line_iou'));
      expect(await metricRow(page, 'func_topk_recall[1]')).toEqual(cellsOf(expected, 'func_topk_recall[1]'));
      expect(await metricRow(page, 'rc_line_topk_recall[5]')).toEqual(cellsOf(expected, 'rc_line_topk_recall[5]'));
      expect(expected.n_paired).toBe(5);
      // The model found sample:1's function, the baseline did not: a discordant task for func@1.
      expect(expected.metrics.find((metric) => metric.metric === 'func_topk_recall[1]')?.mcnemar?.a_only).toBeGreaterThan(0);
      const listed = await section.locator('ul.differing li').evaluateAll((items: PageElement[]) => items.map((item) => item.getAttribute('data-task')));
      expect(listed).toEqual(expected.differing.map((task) => task.task).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
      expect(listed).toContain('sample:1');
    });

    it('shows why two runs scored under other settings are not paired', async () => {
      const elsewhere = join(scratch.dir, 'other-settings');
      const copies = [runs.model, runs.baseline].map((scan) => join(elsewhere, RECORDS_FOLDER, scan.assessment.id));
      for (const [index, scan] of [runs.model, runs.baseline].entries()) cpSync(scan.folder, copies[index], { recursive: true });
      const assessment = join(copies[1], 'assessment.json');
      const file = JSON.parse(readFileSync(assessment, 'utf8')) as { settings: Record<string, string | number> };
      writeFileSync(assessment, JSON.stringify({ ...file, settings: { ...file.settings, TASK_TIMEOUT_S: 12345 } }));
      const other = await ViewerProcess.start([elsewhere]);
      try {
        await page.goto(`${other.url}#/compare/${runs.model.assessment.id},${runs.baseline.assessment.id}`);
        const refusal = page.locator('section.paired p.problem');
        await refusal.waitFor();

        await expect(refusal.textContent()).resolves.toMatch(
          /^Not compared: the two runs were scored under different settings, so their scores are not comparable: TASK_TIMEOUT_S: \d+ in A, 12345 in B\.$/,
        );
        await expect(page.locator('table.compare tbody tr').count()).resolves.toBe(5);
      } finally {
        await other.stop();
      }
    });

    it("marks the fix's lines and the solver's guesses, with their ranks, on the source lines side by side", async () => {
      await openComparison(page, viewer.url, runs);
      await page.locator('tr[data-task="sample:4"] td').nth(0).locator('a').click();
      await page.locator('table.source').first().waitFor();

      // The model named lines 158 to 175 of decode_dict: the fix's lines, and more below them.
      const recorded = await marksOf(runs.model, 'sample:4');
      const shown = await markedLines(page);
      expect(shown).toEqual(recorded);
      expect(shown.fix[0]).toBe(158);
      expect(shown.predicted).toEqual(range(158, 175).map((line) => [line, '#1']));
      await expect(page.locator('pre.crash').textContent()).resolves.toContain('AddressSanitizer');

      await page.goto(`${viewer.url}#/task/${runs.baseline.assessment.id}/${encodeURIComponent('sample:4')}`);
      await page.locator('table.source').first().waitFor();
      expect(await markedLines(page)).toEqual(await marksOf(runs.baseline, 'sample:4'));

      await page.goto(`${viewer.url}#/task/${runs.model.assessment.id}/${encodeURIComponent('sample:5')}`);
      await page.locator('table.source').first().waitFor();
      const perfect = await markedLines(page);
      expect(perfect.fix).toEqual(range(3, 22));
      expect(perfect.predicted).toEqual(range(3, 22).map((line) => [line, '#1']));
    });

    it("steps through the trajectory the record keeps, the purple agent's own files gone: thought, command, output, tokens and cost, with next, previous and the arrow keys", async () => {
      expect(runs.model.done.get('sample:3')?.files.trajectory).toBe(`assessments/${runs.model.assessment.id}/tasks/sample_3/trajectory.json`);
      await page.goto(`${viewer.url}#/task/${runs.model.assessment.id}/${encodeURIComponent('sample:3')}`);
      const trajectory = page.locator('rca-trajectory');
      await trajectory.locator('.step').waitFor();

      await expect(trajectory.locator('.position').textContent()).resolves.toBe('step 1 of 4');
      await expect(trajectory.locator('pre.thought').textContent()).resolves.toBe('THOUGHT: read the crash report first.');
      await expect(trajectory.locator('pre.command').textContent()).resolves.toBe('head -n 5 /workspace/*error.txt');
      await expect(trajectory.locator('pre.output').textContent()).resolves.toContain('AddressSanitizer');
      await expect(trajectory.locator('.usage').textContent()).resolves.toMatch(/^tokens: \d+ in \(\d+ cached\), \d+ out · cost \$\d/);
      await expect(trajectory.locator('button.previous').isDisabled()).resolves.toBe(true);

      await trajectory.locator('button.next').click();
      await expect(trajectory.locator('.position').textContent()).resolves.toBe('step 2 of 4');
      await expect(trajectory.locator('pre.command').textContent()).resolves.toBe('grep -n ini_unescape /src/*/src/value.c | head -n 3');
      await page.keyboard.press('ArrowRight');
      await expect(trajectory.locator('.position').textContent()).resolves.toBe('step 3 of 4');
      await expect(trajectory.locator('pre.command').textContent()).resolves.toContain('/workspace/shared/loc.json');
      await page.keyboard.press('ArrowRight');
      await expect(trajectory.locator('pre.command').textContent()).resolves.toBe('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
      await expect(trajectory.locator('button.next').isDisabled()).resolves.toBe(true);
      await trajectory.locator('button.previous').click();
      await expect(trajectory.locator('.position').textContent()).resolves.toBe('step 3 of 4');
    });

    it("opens the task log with the lines of that task's run only, though both runs wrote to its file", async () => {
      await page.goto(`${viewer.url}#/task/${runs.model.assessment.id}/${encodeURIComponent('sample:3')}`);
      await page.locator('details.log summary').click();
      const log = page.locator('details.log pre');
      await log.waitFor();

      const context = runs.model.done.get('sample:3')?.context_id.slice(0, 8);
      const events = ((await log.textContent()) ?? '').split('\n').filter((line) => /^\d{4}-/.test(line));
      expect(events.length).toBeGreaterThan(3);
      expect(events.every((line) => line.split(/ +/)[3] === context)).toBe(true);
      expect(events.join('\n')).toContain('preparing sample:3');
      // The solver knew the task by its masked id; its lines are in the task's log all the same.
      expect(events.join('\n')).toMatch(/ purple +[0-9a-f]{8} \[PurpleExecutor\] solving task:[0-9a-f]{8} with openai\/gpt-4\.1/);
      await expect(page.locator('details.log p.hint').textContent()).resolves.toMatch(new RegExp(`^\\d+ of \\d+ lines: those of context ${context}`));
      const [shown, total] = ((await page.locator('details.log p.hint').textContent()) ?? '').match(/\d+/g)?.map(Number) ?? [];
      expect(shown).toBeLessThan(total);
    });

    it('takes the README screenshots of the three views when asked (VIEWER_SCREENSHOTS=docs)', async () => {
      if (!SCREENSHOTS_DIR) return;
      const shots = await saveScreenshots(
        browser,
        viewer.url,
        [runs.baseline.assessment.id, runs.model.assessment.id],
        { run: runs.model.assessment.id, task: 'sample:3' },
        SCREENSHOTS_DIR,
      );
      expect(shots).toHaveLength(3);
    });
  });
});

function scriptFor(task: string) {
  const answer = ANSWERS[task];
  const read = reply('THOUGHT: read the crash report first.\n\n```bash\nhead -n 5 /workspace/*error.txt\n```');
  if (answer === 'provider error') return [read, httpError(400, { message: 'scripted: this model has nothing more to say' })];
  const locJson = JSON.stringify({ reasoning: 'scripted', locations: [{ ...answer, description: 'the root cause' }] });
  return [
    read,
    ...(task === 'sample:3' ? [reply('THOUGHT: find the function.\n\n```bash\ngrep -n ini_unescape /src/*/src/value.c | head -n 3\n```')] : []),
    reply(`THOUGHT: the root cause is known.\n\n\`\`\`bash\ncat > /workspace/shared/loc.json <<'EOF'\n${locJson}\nEOF\n\`\`\``),
    reply('THOUGHT: submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```'),
  ];
}

async function assess(green: AgentProcess, purple: AgentProcess, concurrency: number): Promise<void> {
  const request = { participants: { purple_agent: purple.url }, config: { task_ids: SAMPLES, concurrency } };
  const events: PeerEvent[] = [];
  for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
    events.push(event);
  if (!events.some((event) => event.kind === 'artifact' && event.name === 'Result'))
    throw new Error(`no Result; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}`);
}

async function readRuns(runDir: string): Promise<Runs> {
  const scans = await Promise.all(readdirSync(join(runDir, RECORDS_FOLDER)).map((id) => scanRecord(join(runDir, RECORDS_FOLDER, id))));
  const byModel = (model: string): RecordScan => {
    const scan = scans.find((candidate) => candidate.assessment.solver.model === model);
    if (!scan) throw new Error(`no record of a run with ${model}: ${scans.map((candidate) => candidate.assessment.solver.model).join(', ')}`);
    return scan;
  };
  return { baseline: byModel('baseline'), model: byModel('openai/gpt-4.1') };
}

function cellText(scan: RecordScan, task: string): string {
  const metrics = scan.done.get(task)?.metrics;
  if (!metrics) return 'missing';
  return metrics.status === 'scored' && metrics.line_iou !== null ? metrics.line_iou.toFixed(2) : metrics.status.replace(/_/g, ' ');
}

/** What the task's sources.json says should be marked, line by line, within the lines it keeps. */
async function marksOf(scan: RecordScan, task: string): Promise<{ fix: number[]; predicted: [number, string][] }> {
  const path = scan.done.get(task)?.files.sources;
  if (!path) throw new Error(`${task} has no sources.json in its record`);
  const sources = JSON.parse(await readFile(join(scan.runDir, path), 'utf8')) as SourcesFile;
  const fix = new Set<number>();
  const predicted: [number, string][] = [];
  for (const excerpt of sources.files) {
    excerpt.lines.forEach((_, index) => {
      const line = excerpt.start + index;
      if (excerpt.fix.some((span) => span.start <= line && line <= span.end)) fix.add(line);
      const ranks = excerpt.predicted.filter((span) => span.start <= line && line <= span.end).map((span) => `#${span.rank}`);
      if (ranks.length > 0) predicted.push([line, ranks.join(' ')]);
    });
  }
  return { fix: [...fix].sort((a, b) => a - b), predicted };
}

async function openComparison(page: Page, base: string, runs: Runs): Promise<void> {
  await page.goto(base);
  await page.locator('table.runs').waitFor();
  await page.getByLabel(`select ${runs.baseline.assessment.id}`).check();
  await page.getByLabel(`select ${runs.model.assessment.id}`).check();
  await page.getByRole('button', { name: 'Compare 2 runs' }).click();
  await page.locator('table.compare tbody tr').first().waitFor();
}

/** Each shown row as the person reads it: the task, then each run's cell. */
function tableCells(page: Page): Promise<string[][]> {
  return page
    .locator('table.compare tbody tr')
    .evaluateAll((rows: PageElement[]) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? '')));
}

function cellColour(page: Page, task: string, run: number): Promise<string> {
  return page
    .locator(`tr[data-task="${task}"] td`)
    .nth(run)
    .evaluate((cell: PageElement) => (globalThis as unknown as BrowserWindow).getComputedStyle(cell).backgroundColor);
}

/** The lines the source tables mark as the fix's, and those marked as the solver's with the ranks shown. */
async function markedLines(page: Page): Promise<{ fix: number[]; predicted: [number, string][] }> {
  return page.locator('table.source tbody tr').evaluateAll((rows: PageElement[]) => {
    const fix = new Set<number>();
    const predicted: [number, string][] = [];
    for (const row of rows) {
      const line = Number(row.getAttribute('data-line'));
      if (row.querySelector('td.mark-fix')) fix.add(line);
      const guess = row.querySelector('td.mark-pred');
      if (guess) predicted.push([line, guess.textContent ?? '']);
    }
    return { fix: [...fix].sort((a, b) => a - b), predicted };
  });
}

/** A row of the paired table as the person reads it, after the metric's name. */
function metricRow(page: Page, metric: string): Promise<string[]> {
  return page.locator(`section.paired tr[data-metric="${metric}"] td`).evaluateAll((cells: PageElement[]) => cells.map((cell) => cell.textContent ?? ''));
}

/** What the row should say: the means, B − A and its interval to three decimals, and McNemar's counts and p for the top-k ones. */
function cellsOf(comparison: PairedComparison, name: string): string[] {
  const metric = comparison.metrics.find((entry) => entry.metric === name);
  if (!metric) throw new Error(`no metric ${name} in the comparison`);
  const signed = (value: number): string => (Number(value.toFixed(3)) === 0 ? '0.000' : `${value > 0 ? '+' : ''}${value.toFixed(3)}`);
  const test = metric.mcnemar;
  return [
    metric.a_mean.toFixed(3),
    metric.b_mean.toFixed(3),
    signed(metric.difference),
    metric.interval ? `[${signed(metric.interval[0])}, ${signed(metric.interval[1])}]` : '–',
    ...(test ? [String(test.a_only), String(test.b_only), test.p_value.toPrecision(3)] : ['', '', '']),
  ];
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start + 1 }, (_, index) => start + index);
}
