// The runs: one line per record, with its means, cost and time; pick some to compare.
import { fetchRuns } from './api.js';
import { h, problem, route } from './dom.js';
import { cost, date, duration, interval, RUN_MEANS, score } from './format.js';

/** @typedef {import('../app/viewer-api').RunSummary} RunSummary */

class RunsView extends HTMLElement {
  async connectedCallback() {
    this.replaceChildren(h('p', { class: 'loading' }, 'reading the run records …'));
    try {
      const list = await fetchRuns();
      this.replaceChildren(...this.render(list.runs), ...list.unreadable.map((entry) => problem(`${entry.folder}: ${entry.reason}`)));
    } catch (error) {
      this.replaceChildren(problem(`the runs cannot be listed: ${/** @type {Error} */ (error).message}`));
    }
  }

  /** @param {RunSummary[]} runs */
  render(runs) {
    if (runs.length === 0) return [h('h1', {}, 'Runs'), problem('no run record in the directories this viewer serves')];
    const compare = h('button', { type: 'button', class: 'compare', disabled: '' }, 'Compare selected runs');
    const table = h(
      'table',
      { class: 'runs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, ''),
          ...['started', 'run directory', 'solver', 'model', 'tasks'].map((title) => h('th', {}, title)),
          ...RUN_MEANS.map((s) => h('th', { class: 'num', title: s.meaning }, s.label)),
          h('th', { class: 'num', title: 'mean per task, over the tasks that reported usage' }, 'cost/task'),
          h('th', { class: 'num' }, 'time'),
        ),
      ),
      h('tbody', {}, ...runs.map((run) => this.row(run))),
    );
    table.addEventListener('change', () => {
      const chosen = this.chosen();
      compare.toggleAttribute('disabled', chosen.length === 0);
      compare.textContent = chosen.length > 1 ? `Compare ${chosen.length} runs` : 'Compare selected runs';
    });
    compare.addEventListener('click', () => (location.hash = route('compare', this.chosen().join(',')).replace(/%2C/g, ',')));
    return [
      h('h1', {}, `Runs (${runs.length})`),
      h(
        'p',
        { class: 'hint' },
        'Means are over the tasks recorded so far; a task without a usable result is not in them. Under each, its 95% interval (percentile bootstrap over the tasks). Tick runs to compare them task by task; tick two to pair them.',
      ),
      table,
      h('p', {}, compare),
    ];
  }

  /** @param {RunSummary} run */
  row(run) {
    const notes = [run.damaged ? `${run.damaged} damaged` : '', run.missing ? `${run.missing} missing` : ''].filter(Boolean).join(', ');
    const tasks = `${run.recorded} of ${run.tasks}${notes ? ` (${notes})` : ''}, ${run.scored} scored`;
    const state = run.ended_at ? '' : ' · not ended';
    return h(
      'tr',
      { 'data-run': run.key },
      h('td', {}, h('input', { type: 'checkbox', value: run.key, 'aria-label': `select ${run.id}` })),
      h('td', {}, h('a', { href: route('compare', run.key) }, date(run.started_at)), h('span', { class: 'hint' }, state)),
      h('td', { class: 'path' }, run.runDir),
      h('td', {}, `${run.solver.name} ${run.solver.version}`),
      h('td', {}, run.solver.model ?? '–'),
      h('td', {}, tasks),
      ...RUN_MEANS.map((s) =>
        h(
          'td',
          { class: 'num', 'data-score': s.name },
          h('span', { class: 'mean' }, score(run.means[s.name])),
          h('span', { class: 'interval', title: '95% interval' }, interval(run.intervals[s.name])),
        ),
      ),
      h('td', { class: 'num' }, cost(run.cost)),
      h('td', { class: 'num' }, duration(run.seconds)),
    );
  }

  /** @returns {string[]} */
  chosen() {
    return [...this.querySelectorAll('input[type=checkbox]:checked')].map((box) => /** @type {HTMLInputElement} */ (box).value);
  }
}

customElements.define('rca-runs', RunsView);
