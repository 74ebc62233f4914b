// One task of one run: its scores, the crash report, the fix and the solver's answer on the source lines,
// the trajectory step by step, and the task log (read when opened).
import './trajectory-view.js';
import { fetchLog, fetchTask } from './api.js';
import { h, problem, route } from './dom.js';
import { cost, duration, score, SCORES } from './format.js';
import { sourcesView } from './sources-view.js';

/** @typedef {import('../app/viewer-api').TaskPage} TaskPage */
/** @typedef {import('../app/viewer-api').FileState} FileState */

const UNAVAILABLE = {
  none: 'the record names none',
  // A record kept by a runner on another machine has its task's files; the logs stay where the agents ran.
  missing: 'the file the record names is not in this run directory: gone, or left on the machine the task ran on',
  outside: 'the file the record names is outside the run directories this viewer serves',
};

class TaskView extends HTMLElement {
  async connectedCallback() {
    const run = this.getAttribute('run') ?? '';
    const task = this.getAttribute('task') ?? '';
    this.replaceChildren(h('p', { class: 'loading' }, `reading ${task} …`));
    try {
      this.render(await fetchTask(run, task));
    } catch (error) {
      this.replaceChildren(
        h('p', {}, h('a', { href: route('compare', run) }, '← the run')),
        problem(`${task} cannot be shown: ${/** @type {Error} */ (error).message}`),
      );
    }
  }

  /** @param {TaskPage} page */
  render(page) {
    const { run, row } = page;
    const nav = h(
      'nav',
      { class: 'crumbs' },
      h('a', { href: '#/' }, 'runs'),
      ' › ',
      h('a', { href: route('compare', run.key) }, `${run.solver.model ?? run.solver.name} · ${run.id}`),
      ' › ',
      h('strong', {}, row.task),
      page.previous ? h('a', { class: 'previous-task', href: route('task', run.key, page.previous) }, ` ◀ ${page.previous}`) : null,
      page.next ? h('a', { class: 'next-task', href: route('task', run.key, page.next) }, ` ${page.next} ▶`) : null,
    );
    this.replaceChildren(
      nav,
      h('h1', {}, `${row.task} `, h('span', { class: `badge ${row.status}` }, row.status.replace(/_/g, ' '))),
      this.summary(page),
      section('Where the fix was, and where the solver pointed', sourcesView(page.sources)),
      section('Crash report', page.crash_report === null ? absent('none was recorded') : h('pre', { class: 'crash' }, page.crash_report)),
      section('The fix', page.fix === null ? absent('none was recorded') : diffView(page.fix)),
      section(
        'The solver’s answer (loc.json)',
        page.submission === null ? absent('the solver wrote none') : h('pre', { class: 'submission' }, page.submission),
      ),
      section('Trajectory', page.trajectory === 'present' ? h('rca-trajectory', { run: run.key, task: row.task }) : absent(UNAVAILABLE[page.trajectory])),
      this.log(page),
    );
  }

  /** @param {TaskPage} page */
  summary(page) {
    const { row, metrics } = page;
    const exit = typeof metrics['solver_exit_status'] === 'string' ? metrics['solver_exit_status'] : '–';
    const facts = [
      ...SCORES.map((s) => [s.label, score(row.scores[s.name])]),
      ['solver exit', exit],
      ['model calls', row.steps === null ? '–' : String(row.steps)],
      ['cost', cost(row.cost)],
      ['time', duration(row.seconds)],
      ['attempts', row.attempts === null ? '–' : String(row.attempts)],
      ['the solver knew it as', page.masked_id ?? page.task_id],
    ];
    return h(
      'div',
      { class: 'summary' },
      row.detail ? h('p', { class: 'detail' }, row.detail) : null,
      h('dl', {}, ...facts.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    );
  }

  /** @param {TaskPage} page */
  log(page) {
    if (page.log !== 'present') return section('Task log', absent(UNAVAILABLE[page.log]));
    const body = h('div', {}, h('p', { class: 'loading' }, 'reading the log …'));
    const details = h('details', { class: 'log' }, h('summary', {}, 'Task log'), body);
    details.addEventListener('toggle', async () => {
      if (!details.open || body.dataset['loaded']) return;
      body.dataset['loaded'] = 'yes';
      try {
        const log = await fetchLog(page.run.key, page.row.task);
        const note = `${log.lines} of ${log.total_lines} lines: those of context ${log.context}${log.cut ? ' (the file is long: its end only)' : ''}`;
        body.replaceChildren(h('p', { class: 'hint' }, note), h('pre', {}, log.text));
      } catch (error) {
        body.replaceChildren(problem(`the log cannot be shown: ${/** @type {Error} */ (error).message}`));
      }
    });
    return h('section', {}, details);
  }
}

/**
 * @param {string} title
 * @param {Node} content
 */
function section(title, content) {
  return h('section', {}, h('h2', {}, title), content);
}

/** @param {string} why */
function absent(why) {
  return h('p', { class: 'hint' }, `Not available: ${why}.`);
}

/** @param {string} diff */
function diffView(diff) {
  const lines = diff.split('\n').map((line) => {
    const kind =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'add'
            : line.startsWith('-')
              ? 'del'
              : '';
    return h('span', { class: kind }, `${line}\n`);
  });
  return h('pre', { class: 'diff' }, ...lines);
}

customElements.define('rca-task', TaskView);
