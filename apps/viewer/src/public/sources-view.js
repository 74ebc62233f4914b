// The source lines around the fix and the solver's answer, side by side: a column marks the lines the fix
// changed, the next one the lines the solver named, with the rank of its guess.
import { h } from './dom.js';

/** @typedef {import('../app/viewer-api').SourceExcerpt} SourceExcerpt */

/**
 * @param {SourceExcerpt[] | null} excerpts
 * @returns {HTMLElement}
 */
export function sourcesView(excerpts) {
  if (!excerpts) return h('p', { class: 'hint' }, 'The record has no source lines for this task (no ground truth, or a record from before they were kept).');
  if (excerpts.length === 0) return h('p', { class: 'hint' }, 'Neither the fix nor the solver’s answer names a line of a file in the source tree.');
  const legend = h(
    'p',
    { class: 'legend' },
    h('span', { class: 'mark-fix' }, 'fix'),
    ' a line the developers’ fix changed   ',
    h('span', { class: 'mark-pred' }, '#1'),
    ' a line the solver named, with the rank of its guess',
  );
  return h('div', { class: 'sources' }, legend, ...excerpts.map(excerptView));
}

/** @param {SourceExcerpt} excerpt */
function excerptView(excerpt) {
  const rows = excerpt.lines.map((text, index) => {
    const line = excerpt.start + index;
    const fixed = excerpt.fix.some((span) => span.start <= line && line <= span.end);
    const ranks = excerpt.predicted.filter((span) => span.start <= line && line <= span.end).map((span) => span.rank);
    const classes = [fixed ? 'fix-line' : '', ranks.length ? 'pred-line' : ''].filter(Boolean).join(' ');
    return h(
      'tr',
      { 'data-line': String(line), class: classes },
      h('td', { class: fixed ? 'gt mark-fix' : 'gt', title: fixed ? 'changed by the fix' : '' }, fixed ? 'fix' : ''),
      h(
        'td',
        { class: ranks.length ? 'pred mark-pred' : 'pred', title: ranks.length ? `named by the solver (rank ${ranks.join(', ')})` : '' },
        ranks.map((rank) => `#${rank}`).join(' '),
      ),
      h('td', { class: 'lineno' }, String(line)),
      h('td', { class: 'code' }, text),
    );
  });
  const end = excerpt.start + excerpt.lines.length - 1;
  return h(
    'figure',
    { class: 'excerpt', 'data-path': excerpt.path },
    h('figcaption', {}, `${excerpt.path}, lines ${excerpt.start}–${end}`),
    h(
      'table',
      { class: 'source' },
      h('thead', {}, h('tr', {}, h('th', {}, 'fix'), h('th', {}, 'solver'), h('th', {}, 'line'), h('th', {}, ''))),
      h('tbody', {}, ...rows),
    ),
  );
}
