// The run's verdict at the top of Live calls, when the dashboard has a folder of expected
// files (`careem-mcp dashboard --expected DIR`): the run graded by its end state as
// `careem-mcp grade` grades it, again whenever the journal changes. Without the folder the
// panel stays hidden.

import { api } from './api.js';
import { h, clear, plural } from './dom.js';

let panel;
let loading = false;
let again = false;

/** Fills `element` with the verdict and follows the run through `onJournalChange`. */
export function start(element, onJournalChange) {
  panel = element;
  onJournalChange(load);
  load();
}

/** One request at a time: a change while one is out asks for one more after it. */
async function load() {
  if (loading) {
    again = true;
    return;
  }
  loading = true;
  try {
    render(await api.get('/verdict'));
  } catch (error) {
    show('cannot', [h('strong', {}, 'Cannot grade: '), error.message]);
  } finally {
    loading = false;
    if (again) {
      again = false;
      load();
    }
  }
}

function render(verdict) {
  switch (verdict?.status) {
    case 'graded': {
      const lines = [...(verdict.differences ?? []), ...(verdict.broken_checks ?? [])];
      show(verdict.passed ? 'passed' : 'failed', [
        h('strong', { id: 'verdict-outcome' }, verdict.passed ? 'Passes' : 'Fails'),
        ` ${verdict.expected} · ${plural(verdict.calls ?? 0, 'call')}`,
      ], lines);
      break;
    }
    case 'no-expected-file':
      show('none', [`No expected file for this run (${verdict.expected}).`]);
      break;
    case 'cannot-grade':
      show('cannot', [h('strong', {}, 'Cannot grade'), ` against ${verdict.expected}: ${verdict.error}`]);
      break;
    default:
      panel.hidden = true;
  }
}

function show(kind, summary, lines = []) {
  panel.hidden = false;
  panel.dataset.verdict = kind;
  clear(panel).append(
    h('p', { class: 'verdict-summary' }, ...summary,
      h('button', { type: 'button', id: 'verdict-again', onclick: load }, 'Grade again')),
    lines.length ? h('ul', { class: 'verdict-lines', id: 'verdict-lines' }, lines.map((line) => h('li', {}, line))) : null);
}
