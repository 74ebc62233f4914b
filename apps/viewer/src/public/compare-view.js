// Tasks × runs: each cell is the task's headline score in that run, coloured by it, or its status when it
// was not scored. Rows are built once; sorting and filtering only reorder and hide them.
import { fetchComparison } from './api.js';
import { h, problem, route } from './dom.js';
import { compareResultKeys, date, interval, RUN_MEANS, score, scoreColour, SCORES } from './format.js';
import { pairedSection } from './paired-view.js';

/** @typedef {import('../app/viewer-api').Comparison} Comparison */
/** @typedef {import('../app/viewer-api').TaskRow} TaskRow */
/** @typedef {import('../app/viewer-api').ScoreName} ScoreName */
/** @typedef {{ task: string, cells: (TaskRow | undefined)[], element: HTMLTableRowElement }} Row */

class CompareView extends HTMLElement {
  constructor() {
    super();
    /** @type {ScoreName} */
    this.headline = 'line_iou';
    /** @type {{ column: number, descending: boolean }} column -1 is the task */
    this.sort = { column: -1, descending: false };
    /** @type {Set<string>} statuses shown; empty: all */
    this.statuses = new Set();
    /** @type {Row[]} */
    this.rows = [];
    /** @type {Comparison | undefined} */
    this.comparison = undefined;
  }

  async connectedCallback() {
    const keys = (this.getAttribute('runs') ?? '').split(',');
    this.replaceChildren(h('p', { class: 'loading' }, 'reading the run records …'));
    try {
      this.comparison = await fetchComparison(keys);
      this.build();
    } catch (error) {
      this.replaceChildren(problem(`the comparison cannot be shown: ${/** @type {Error} */ (error).message}`));
    }
  }

  build() {
    const runs = this.comparison?.runs ?? [];
    const byRun = runs.map((run) => new Map(run.tasks.map((row) => [row.task, row])));
    const tasks = [...new Set(runs.flatMap((run) => run.tasks.map((row) => row.task)))];
    this.rows = tasks.map((task) => ({ task, cells: byRun.map((rows) => rows.get(task)), element: h('tr', { 'data-task': task }) }));
    this.body = h('tbody');
    this.table = h('table', { class: 'compare' }, this.head(), this.body);
    this.counter = h('span', { class: 'count' });
    const paired = this.comparison?.paired;
    this.replaceChildren(
      h('h1', {}, runs.length > 1 ? `${runs.length} runs, ${tasks.length} tasks` : `${runs[0]?.summary.id}: ${tasks.length} tasks`),
      this.controls(),
      this.table,
      this.means(),
      ...(paired && runs.length === 2 ? [pairedSection(paired, runs[0].summary, runs[1].summary)] : []),
    );
    this.fill();
  }

  head() {
    const runs = this.comparison?.runs ?? [];
    const header = (/** @type {number} */ column, /** @type {(Node | string)[]} */ ...content) => {
      const th = h('th', { 'data-column': String(column), 'aria-sort': 'none', tabindex: '0' }, ...content);
      const sortBy = () => this.sortBy(column);
      th.addEventListener('click', sortBy);
      th.addEventListener('keydown', (event) => event.key === 'Enter' && sortBy());
      return th;
    };
    const runHeads = runs.map((run, column) =>
      header(
        column,
        h('span', { class: 'solver' }, `${run.summary.solver.model ?? run.summary.solver.name}`),
        h('br'),
        h('span', { class: 'hint' }, date(run.summary.started_at)),
      ),
    );
    return h('thead', {}, h('tr', {}, header(-1, 'task'), ...runHeads));
  }

  controls() {
    const select = h('select', { 'aria-label': 'headline score' }, ...SCORES.map((s) => h('option', { value: s.name }, s.label)));
    select.value = this.headline;
    const meaning = h('span', { class: 'hint' });
    const explain = () =>
      (meaning.textContent = `— ${SCORES.find((s) => s.name === this.headline)?.meaning}. A task that was not scored shows its status instead.`);
    select.addEventListener('change', () => {
      this.headline = /** @type {ScoreName} */ (select.value);
      explain();
      this.fill();
    });
    explain();
    const present = [...new Set(this.rows.flatMap((row) => row.cells.map((cell) => cell?.status ?? 'absent')))].sort();
    const filters = present.map((status) => {
      const box = h('input', { type: 'checkbox', value: status });
      box.addEventListener('change', () => {
        if (box.checked) this.statuses.add(status);
        else this.statuses.delete(status);
        this.show();
      });
      return h('label', { class: 'filter' }, box, ` ${status.replace(/_/g, ' ')}`);
    });
    return h(
      'div',
      { class: 'controls' },
      h('label', {}, 'Each cell: ', select),
      meaning,
      h('div', { class: 'filters' }, 'Only tasks with a run whose status is: ', ...filters, ' ', this.counter ?? ''),
    );
  }

  // Every cell's text and colour for the headline score; then the rows in order.
  fill() {
    const keys = (this.comparison?.runs ?? []).map((run) => run.summary.key);
    for (const row of this.rows) {
      row.element.replaceChildren(h('th', { scope: 'row' }, row.task), ...row.cells.map((cell, index) => this.cell(cell, keys[index], row.task)));
    }
    this.show();
  }

  /**
   * @param {TaskRow | undefined} row
   * @param {string} run
   * @param {string} task
   */
  cell(row, run, task) {
    if (!row) return h('td', { class: 'absent', title: 'not in this run' }, '');
    const value = row.scores[this.headline];
    const scored = row.status === 'scored' && value !== null;
    const td = h('td', {
      class: scored ? 'score' : `status ${row.status}`,
      'data-status': row.status,
      title: [row.status, row.detail].filter(Boolean).join(': '),
    });
    if (scored) {
      td.style.backgroundColor = scoreColour(value);
      td.dataset['score'] = String(value);
    }
    td.append(h('a', { href: route('task', run, task) }, scored ? score(value) : row.status.replace(/_/g, ' ')));
    return td;
  }

  /** @param {number} column */
  sortBy(column) {
    this.sort = { column, descending: this.sort.column === column ? !this.sort.descending : column >= 0 };
    for (const th of this.table?.querySelectorAll('thead th') ?? []) {
      const active = Number(th.getAttribute('data-column')) === column;
      th.setAttribute('aria-sort', active ? (this.sort.descending ? 'descending' : 'ascending') : 'none');
    }
    this.show();
  }

  show() {
    const { column, descending } = this.sort;
    const value = (/** @type {Row} */ row) => {
      const cell = row.cells[column];
      return cell?.status === 'scored' ? (cell.scores[this.headline] ?? -1) : -1;
    };
    // Ties keep the tasks' own order, whichever way the column sorts.
    const ordered = [...this.rows].sort((a, b) => {
      const order = column < 0 ? compareResultKeys(a.task, b.task) : value(a) - value(b);
      return (descending ? -order : order) || compareResultKeys(a.task, b.task);
    });
    const shown = this.statuses.size === 0 ? ordered : ordered.filter((row) => row.cells.some((cell) => this.statuses.has(cell?.status ?? 'absent')));
    this.body?.replaceChildren(...shown.map((row) => row.element));
    if (this.counter) this.counter.textContent = `(${shown.length} of ${this.rows.length} shown)`;
  }

  means() {
    const runs = this.comparison?.runs ?? [];
    const lines = runs.map((run) => {
      const { summary } = run;
      const figures = RUN_MEANS.map((s) => `${s.label} ${score(summary.means[s.name])} (${interval(summary.intervals[s.name])})`).join(' · ');
      return h(
        'li',
        {},
        h('strong', {}, `${summary.solver.name} ${summary.solver.model ?? ''}`),
        ` (${summary.id}, ${summary.recorded} of ${summary.tasks} recorded): ${figures}`,
      );
    });
    const note = h('p', { class: 'hint' }, 'Each mean with its 95% interval: percentile bootstrap over the recorded tasks, failed ones as zeros.');
    return h('div', { class: 'means' }, h('h2', {}, 'Means'), h('ul', {}, ...lines), note);
  }
}

customElements.define('rca-compare', CompareView);
