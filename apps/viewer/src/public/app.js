// The viewer's page: one element that shows the view the address names.
//   #/                         the runs
//   #/compare/<key>,<key>      tasks × runs
//   #/task/<key>/<task>        one task of one run
import './runs-view.js';
import './compare-view.js';
import './task-view.js';
import { h } from './dom.js';

class ViewerApp extends HTMLElement {
  connectedCallback() {
    window.addEventListener('hashchange', () => this.show());
    this.show();
  }

  show() {
    const [view = '', ...args] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    /** @type {HTMLElement} */
    let element;
    if (view === 'compare' && args[0]) {
      element = h('rca-compare', { runs: args[0] });
      document.title = 'arvo-rca: comparison';
    } else if (view === 'task' && args.length === 2) {
      element = h('rca-task', { run: args[0], task: args[1] });
      document.title = `arvo-rca: ${args[1]}`;
    } else {
      element = h('rca-runs');
      document.title = 'arvo-rca runs';
    }
    this.replaceChildren(element);
    window.scrollTo(0, 0);
  }
}

customElements.define('rca-viewer', ViewerApp);
