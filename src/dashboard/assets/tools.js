// Tools: each definition as the tool list carries it (title, description, annotations, input
// and output schema) and whether `lint` finds problems in its file.

import { api } from './api.js';
import { h, clear, plural, toast } from './dom.js';
import { jsonView } from './json.js';

let root;
let listEl;
let data = { tools: [], otherProblems: [] };
let search = '';

export function start(section) {
  root = section;
  listEl = h('div', { class: 'tool-defs', id: 'tool-list' });
  root.append(
    h('div', { class: 'toolbar' },
      h('label', {}, 'Search ', h('input', { type: 'search', id: 'tool-search', placeholder: 'name, title or description…', oninput: (e) => { search = e.target.value.toLowerCase(); render(); } })),
      h('span', { class: 'count', id: 'tool-count' })),
    listEl);
  load();
}

export function shown() {
  load();
}

async function load() {
  try {
    data = await api.get('/tools');
    render();
  } catch (error) {
    toast(`Cannot load the tools: ${error.message}`, { error: true });
  }
}

function render() {
  const problems = data.tools.reduce((n, t) => n + t.problems.length, 0) + data.otherProblems.length;
  root.querySelector('#tool-count').textContent = `${data.tools.length} tools, ${problems ? plural(problems, 'lint problem') : 'lint clean'}`;
  const shownTools = data.tools.filter((t) => !search
    || `${t.name} ${t.definition.title ?? ''} ${t.definition.description ?? ''}`.toLowerCase().includes(search));
  const open = new Set([...listEl.querySelectorAll('details[open]')].map((d) => d.dataset.tool));
  clear(listEl);
  if (data.otherProblems.length) listEl.append(problemList(data.otherProblems));
  listEl.append(...shownTools.map((t) => definition(t, open.has(t.name))));
}

function definition(tool, open) {
  const d = tool.definition;
  const lint = tool.problems.length
    ? h('span', { class: 'badge fault' }, plural(tool.problems.length, 'lint problem'))
    : h('span', { class: 'badge ok' }, 'lint ok');
  return h('details', { class: 'tool-def', open, dataset: { tool: tool.name } },
    h('summary', {},
      h('span', { class: 'tool' }, tool.name),
      d.title ? h('span', { class: 'title' }, d.title) : null,
      lint),
    h('div', { class: 'def-body' },
      h('p', { class: 'path' }, h('code', {}, tool.path)),
      tool.problems.length ? problemList(tool.problems) : null,
      h('p', { class: 'description' }, d.description ?? ''),
      d.annotations ? h('ul', { class: 'chips', 'aria-label': 'annotations' },
        Object.entries(d.annotations).map(([k, v]) => h('li', {}, `${k}: ${JSON.stringify(v)}`))) : null,
      section('Input schema', d.inputSchema),
      section('Output schema', d.outputSchema),
      section('_meta', d._meta)));
}

function section(title, value) {
  if (value === undefined) return null;
  return h('section', { class: 'panel' }, h('h3', {}, title), jsonView(value, { open: 2 }));
}

function problemList(problems) {
  return h('ul', { class: 'problems', role: 'list' }, problems.map((p) => h('li', {}, p.text)));
}
