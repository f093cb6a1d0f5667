// The page's frame: five views behind tabs (the URL's #fragment names the open one, so the
// browser's back button and bookmarks work), keys 1-5 to switch and / to search.

import { api, run } from './api.js';
import * as calls from './calls.js';
import * as scenarios from './scenarios.js';
import * as tryCall from './try.js';
import * as tools from './tools.js';
import * as world from './world.js';

const views = { calls, scenarios, try: tryCall, tools, world };
const started = new Set();

function show(name) {
  if (!views[name]) name = 'calls';
  for (const section of document.querySelectorAll('main > section')) {
    section.hidden = section.dataset.view !== name;
  }
  for (const tab of document.querySelectorAll('.tabs a')) {
    if (tab.dataset.view === name) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  const root = document.getElementById(`view-${name}`);
  if (!started.has(name)) {
    started.add(name);
    views[name].start(root);
  } else {
    views[name].shown?.(root);
  }
}

window.addEventListener('hashchange', () => show(location.hash.slice(1)));

document.addEventListener('keydown', (event) => {
  const typing = event.target.closest?.('input, textarea, select, [contenteditable]');
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  const order = Object.keys(views);
  if (event.key >= '1' && event.key <= String(order.length)) {
    location.hash = order[Number(event.key) - 1];
    event.preventDefault();
  } else if (event.key === '/') {
    const search = document.querySelector('main > section:not([hidden]) input[type=search]');
    if (search) {
      search.focus();
      event.preventDefault();
    }
  }
});

// The run selector: the page shows one run (`?run=NAME`, none for the default run); choosing
// another loads the page again in that run, so every view, and the live stream, follow it.
const runForm = document.getElementById('run-form');
const runInput = document.getElementById('run');
runInput.value = run;
runForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!runInput.checkValidity()) {
    runInput.reportValidity();
    return;
  }
  const url = new URL(location.href);
  if (runInput.value) url.searchParams.set('run', runInput.value);
  else url.searchParams.delete('run');
  location.assign(url);
});
runInput.addEventListener('change', () => runForm.requestSubmit());
api.get('/runs').then(({ runs }) => {
  document.getElementById('run-names').replaceChildren(
    ...runs.map((name) => Object.assign(document.createElement('option'), { value: name })),
  );
}, () => {});

// The live stream runs whatever view is open, so the header always says whether it is live.
calls.connect(document.getElementById('live'));
show(location.hash.slice(1));
