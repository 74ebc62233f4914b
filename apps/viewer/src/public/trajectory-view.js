// The solver's trajectory, one step at a time: its thought, its command, what it was shown next, and the
// step's tokens and cost. Loaded only when a task page opens; ← and → step through it.
import { fetchTrajectory } from './api.js';
import { h, problem } from './dom.js';
import { cost, tokens } from './format.js';

/** @typedef {import('../app/viewer-api').TrajectoryView} TrajectoryView */
/** @typedef {import('../app/viewer-api').TrajectoryStep} TrajectoryStep */

class TrajectoryPanel extends HTMLElement {
  constructor() {
    super();
    /** @type {TrajectoryView | undefined} */
    this.trajectory = undefined;
    this.index = 0;
    this.onKey = (/** @type {KeyboardEvent} */ event) => {
      const target = /** @type {HTMLElement | null} */ (event.target);
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      if (event.key === 'ArrowRight') this.go(this.index + 1);
      if (event.key === 'ArrowLeft') this.go(this.index - 1);
    };
  }

  async connectedCallback() {
    document.addEventListener('keydown', this.onKey);
    this.replaceChildren(h('p', { class: 'loading' }, 'reading the trajectory …'));
    try {
      this.trajectory = await fetchTrajectory(this.getAttribute('run') ?? '', this.getAttribute('task') ?? '');
      this.build(this.trajectory);
    } catch (error) {
      this.replaceChildren(problem(`the trajectory cannot be shown: ${/** @type {Error} */ (error).message}`));
    }
  }

  disconnectedCallback() {
    document.removeEventListener('keydown', this.onKey);
  }

  /** @param {TrajectoryView} trajectory */
  build(trajectory) {
    const total = trajectory.tokens ? `, ${tokens(trajectory.tokens.input)} tokens in, ${tokens(trajectory.tokens.output)} out` : '';
    const about = h(
      'p',
      { class: 'hint' },
      `${trajectory.steps.length} steps with ${trajectory.model ?? 'an unnamed model'}, ended ${trajectory.exit_status ?? 'without an exit status'}; ${cost(trajectory.cost)}${total}.`,
    );
    const instance = trajectory.instance ? h('details', {}, h('summary', {}, 'the task as the solver was given it'), h('pre', {}, trajectory.instance)) : null;
    if (trajectory.steps.length === 0) {
      this.replaceChildren(about, instance ?? '', h('p', {}, 'The solver made no step.'));
      return;
    }
    this.previous = h('button', { type: 'button', class: 'previous' }, '◀ previous');
    this.next = h('button', { type: 'button', class: 'next' }, 'next ▶');
    this.position = h('span', { class: 'position', 'aria-live': 'polite' });
    this.previous.addEventListener('click', () => this.go(this.index - 1));
    this.next.addEventListener('click', () => this.go(this.index + 1));
    this.strip = h('div', { class: 'strip' }, ...trajectory.steps.map((step, index) => this.stripButton(step, index)));
    this.stepView = h('div', { class: 'step' });
    const closing = trajectory.closing ? h('details', {}, h('summary', {}, 'how the run ended'), h('pre', {}, trajectory.closing)) : null;
    this.replaceChildren(
      about,
      instance ?? '',
      h('nav', { class: 'stepper' }, this.previous, this.position, this.next),
      this.strip,
      this.stepView,
      closing ?? '',
    );
    this.go(0);
  }

  /**
   * @param {TrajectoryStep} step
   * @param {number} index
   */
  stripButton(step, index) {
    const failed = step.command === null || (step.returncode !== null && step.returncode !== 0);
    const button = h('button', { type: 'button', class: failed ? 'failed' : '', title: step.command ?? 'no single command' }, String(step.index));
    button.addEventListener('click', () => this.go(index));
    return button;
  }

  /** @param {number} index */
  go(index) {
    const steps = this.trajectory?.steps ?? [];
    if (index < 0 || index >= steps.length || !this.stepView) return;
    this.index = index;
    const step = steps[index];
    this.stepView.replaceChildren(...stepContent(step));
    if (this.position) this.position.textContent = `step ${step.index} of ${steps.length}`;
    this.previous?.toggleAttribute('disabled', index === 0);
    this.next?.toggleAttribute('disabled', index === steps.length - 1);
    this.strip?.querySelectorAll('button').forEach((button, at) => button.classList.toggle('current', at === index));
  }
}

/** @param {TrajectoryStep} step */
function stepContent(step) {
  const usage = step.tokens
    ? `tokens: ${tokens(step.tokens.input)} in (${tokens(step.tokens.cache_read)} cached), ${tokens(step.tokens.output)} out · cost ${cost(step.cost)}`
    : 'no usage recorded for this step';
  const exit = step.returncode === null ? '' : ` → exit ${step.returncode}`;
  return [
    h('p', { class: 'usage' }, usage),
    h('h4', {}, 'thought'),
    h('pre', { class: 'thought' }, step.thought || '(none)'),
    h('h4', {}, `command${exit}`),
    h('pre', { class: 'command' }, step.command ?? '(no single bash block: the reply ran nothing)'),
    h('h4', {}, 'output'),
    h('pre', { class: 'output' }, step.output ?? '(none)'),
  ];
}

customElements.define('rca-trajectory', TrajectoryPanel);
