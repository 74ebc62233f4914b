// Run A against run B on the tasks both graded: per metric the means, B − A with its paired-bootstrap
// interval and, for the top-k hits, McNemar's exact test; then the tasks that score differently. Or, when
// the two runs were scored under other settings, why they are not compared.
import { h, route } from './dom.js';
import { compareResultKeys, date, interval, signed } from './format.js';

/** @typedef {import('../app/viewer-api').PairedView} PairedView */
/** @typedef {import('../app/viewer-api').PairedScore} PairedScore */
/** @typedef {import('../app/viewer-api').RunSummary} RunSummary */

/**
 * @param {PairedView} paired
 * @param {RunSummary} a
 * @param {RunSummary} b
 */
export function pairedSection(paired, a, b) {
  const name = (/** @type {RunSummary} */ run) => `${run.solver.model ?? run.solver.name} (${date(run.started_at)})`;
  const title = h('h2', {}, 'A against B, task by task');
  const who = h('p', {}, h('strong', {}, 'A'), ` ${name(a)} · `, h('strong', {}, 'B'), ` ${name(b)}`);
  if (paired.kind === 'refused')
    return h('section', { class: 'paired' }, title, who, h('p', { class: 'problem', role: 'alert' }, `Not compared: ${paired.reason}.`));
  const only = (/** @type {string[]} */ tasks) => (tasks.length === 0 ? 'none' : tasks.join(', '));
  const method =
    `On the ${paired.n_paired} tasks both runs graded (${paired.n_rc_paired} with root-cause spans; only in A: ${only(paired.only_in_a)}; only in B: ${only(paired.only_in_b)}). ` +
    `B − A with its ${paired.level * 100}% paired-bootstrap interval (${paired.resamples.toLocaleString('en')} resamples of the tasks, seed ${paired.seed}, ${paired.prng}); ` +
    "for the top-k hits (the top k hold a span of the fix), McNemar's exact test on the tasks only one run hit. An interval that leaves out 0 is in bold.";
  return h('section', { class: 'paired' }, title, who, h('p', { class: 'hint' }, method), metricsTable(paired.metrics), ...differing(paired, b.key));
}

/** @param {PairedScore[]} metrics */
function metricsTable(metrics) {
  const head = ['metric', 'A', 'B', 'B − A', '95% interval', 'A only', 'B only', 'McNemar p'].map((title, column) =>
    h('th', column === 0 ? {} : { class: 'num' }, title),
  );
  const rows = metrics.map((metric) => {
    const test = metric.mcnemar;
    const clear = metric.interval !== null && (metric.interval[0] > 0 || metric.interval[1] < 0);
    return h(
      'tr',
      { 'data-metric': metric.metric, class: clear ? 'clear' : '' },
      h('th', { scope: 'row' }, metric.metric),
      ...[metric.a_mean.toFixed(3), metric.b_mean.toFixed(3), signed(metric.difference), interval(metric.interval, true)].map((text) =>
        h('td', { class: 'num' }, text),
      ),
      ...(test ? [String(test.a_only), String(test.b_only), pValue(test.p_value)] : ['', '', '']).map((text) => h('td', { class: 'num' }, text)),
    );
  });
  return h('table', { class: 'paired' }, h('thead', {}, h('tr', {}, ...head)), h('tbody', {}, ...rows));
}

/**
 * The tasks that score differently, each with the scalar scores that changed (all changes when only others did).
 * @param {Extract<PairedView, { kind: 'compared' }>} paired
 * @param {string} runB
 */
function differing(paired, runB) {
  if (paired.differing.length === 0) return [h('p', { class: 'hint' }, 'No task scores differently in the two runs.')];
  const tasks = [...paired.differing].sort((x, y) => compareResultKeys(x.task, y.task));
  const items = tasks.map(({ task, changes }) => {
    const scalars = changes.filter((change) => !change.metric.startsWith('rc_') && !change.metric.includes('['));
    const shown = (scalars.length > 0 ? scalars : changes).map((change) => `${change.metric} ${short(change.a)} → ${short(change.b)}`);
    return h('li', { 'data-task': task }, h('a', { href: route('task', runB, task) }, task), ` ${shown.join(', ')}`);
  });
  return [h('h3', {}, `Tasks that score differently (${paired.differing.length} of ${paired.n_paired})`), h('ul', { class: 'differing' }, ...items)];
}

/** @param {number} p */
function pValue(p) {
  return p >= 0.001 ? p.toPrecision(3) : p.toExponential(1);
}

/** @param {number} value */
function short(value) {
  return Number.isInteger(value) ? String(value) : value < 0.01 ? value.toExponential(1) : value.toFixed(2);
}
