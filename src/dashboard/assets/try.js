// Try a call: a form built from the tool's input schema (or the arguments as JSON), run in
// process exactly as `careem-mcp call` runs it; the answer is what an MCP client would get.

import { api } from './api.js';
import { h, clear, toast } from './dom.js';
import { jsonView } from './json.js';

let root;
let tools = [];
let scenarios = {};
let asJson = false;
let form;
let jsonArea;
let resultEl;

export async function start(section) {
  root = section;
  try {
    const [toolList, scenarioList] = await Promise.all([api.get('/tools'), api.get('/scenarios')]);
    tools = toolList.tools.filter((t) => t.definition?.inputSchema);
    for (const t of scenarioList.tools) scenarios[t.tool] = t.scenarios;
  } catch (error) {
    toast(`Cannot load the tools: ${error.message}`, { error: true });
    return;
  }
  const wanted = new URLSearchParams(location.search).get('tool');
  const select = h('select', { id: 'try-tool', onchange: () => pick(select.value) },
    tools.map((t) => h('option', { value: t.name, selected: t.name === wanted }, t.name)));
  form = h('form', { id: 'try-form', class: 'try-form', onsubmit: (e) => { e.preventDefault(); run(); } });
  resultEl = h('div', { id: 'try-result', class: 'try-result', 'aria-live': 'polite' });
  root.append(h('div', { class: 'try' },
    h('div', { class: 'try-input' },
      h('div', { class: 'toolbar' }, h('label', {}, 'Tool ', select)),
      form),
    resultEl));
  pick(select.value);
}

function currentTool() {
  return tools.find((t) => t.name === root.querySelector('#try-tool').value);
}

/** Shows the form for the tool named `name`. */
function pick(name) {
  const tool = tools.find((t) => t.name === name);
  asJson = false;
  clear(form);
  clear(resultEl);
  if (!tool) return;
  const schema = tool.definition.inputSchema;
  const required = new Set(schema.required ?? []);
  const fields = h('div', { class: 'fields', id: 'try-fields' },
    Object.entries(schema.properties ?? {}).map(([name, prop]) => field(name, prop, required.has(name))));
  jsonArea = h('textarea', { id: 'try-json', class: 'json-edit', rows: 10, spellcheck: 'false', 'aria-label': 'Arguments as JSON' });
  const jsonBox = h('div', { class: 'json-box', hidden: true }, jsonArea);
  const toggle = h('button', { type: 'button', id: 'try-mode', onclick: () => {
    try {
      if (!asJson) jsonArea.value = JSON.stringify(fromForm(), null, 2);
      else toForm(JSON.parse(jsonArea.value || '{}'));
    } catch (error) {
      toast(`The arguments are not valid JSON: ${error.message}`, { error: true });
      return;
    }
    asJson = !asJson;
    fields.hidden = asJson;
    jsonBox.hidden = !asJson;
    toggle.textContent = asJson ? 'Edit as form' : 'Edit as JSON';
  } }, 'Edit as JSON');
  const scenario = h('select', { id: 'try-scenario', name: '__scenario' },
    h('option', { value: '' }, 'as usual'),
    (scenarios[tool.name] ?? []).map((s) => h('option', { value: s.name }, `${s.name} — ${s.label}`)));
  form.append(
    h('p', { class: 'description', title: tool.definition.description ?? '' }, tool.definition.title ?? '', tool.definition.title ? ' — ' : '', firstLine(tool.definition.description)),
    fields, jsonBox,
    h('div', { class: 'actions' },
      h('label', {}, 'Scenario ', scenario),
      toggle,
      h('button', { type: 'submit', class: 'primary', id: 'try-run' }, 'Run call')));
}

function firstLine(text) {
  return (text ?? '').split('\n')[0];
}

function field(name, prop, required) {
  const id = `arg-${name}`;
  const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
  let input;
  if (prop.enum) {
    input = h('select', { id, dataset: { arg: name, kind: 'enum' } },
      h('option', { value: '' }, required ? 'choose…' : '(not sent)'),
      prop.enum.map((v) => h('option', { value: JSON.stringify(v) }, String(v))));
  } else if (type === 'boolean') {
    input = h('select', { id, dataset: { arg: name, kind: 'enum' } },
      h('option', { value: '' }, '(not sent)'), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
  } else if (type === 'integer' || type === 'number') {
    input = h('input', { id, type: 'number', step: type === 'integer' ? '1' : 'any', min: prop.minimum, max: prop.maximum, dataset: { arg: name, kind: 'number' } });
  } else if (type === 'string') {
    input = h('input', { id, type: 'text', dataset: { arg: name, kind: 'string' } });
  } else {
    input = h('textarea', { id, rows: 3, spellcheck: 'false', dataset: { arg: name, kind: 'json' }, placeholder: 'JSON' });
  }
  if (prop.default !== undefined) input.setAttribute('placeholder', `default: ${JSON.stringify(prop.default)}`);
  if (required) input.required = true;
  return h('div', { class: 'field' },
    h('label', { for: id }, h('code', {}, name), required ? h('span', { class: 'req', title: 'required' }, ' *') : null, h('span', { class: 'type' }, ` ${type ?? 'any'}`)),
    input,
    prop.description ? h('small', {}, prop.description) : null);
}

/** The arguments the form holds; empty fields are not sent. */
function fromForm() {
  const args = {};
  for (const input of form.querySelectorAll('[data-arg]')) {
    const raw = input.value.trim();
    if (raw === '') continue;
    const { arg, kind } = input.dataset;
    if (kind === 'number') args[arg] = Number(raw);
    else if (kind === 'string') args[arg] = input.value;
    else {
      try {
        args[arg] = JSON.parse(raw);
      } catch {
        throw new Error(`${arg}: ${raw} is not JSON`);
      }
    }
  }
  return args;
}

function toForm(args) {
  for (const input of form.querySelectorAll('[data-arg]')) {
    const value = args[input.dataset.arg];
    if (value === undefined) input.value = '';
    else if (input.dataset.kind === 'string' && typeof value === 'string') input.value = value;
    else if (input.dataset.kind === 'number' && typeof value === 'number') input.value = String(value);
    else input.value = JSON.stringify(value);
  }
}

async function run() {
  const tool = currentTool();
  let args;
  try {
    args = asJson ? JSON.parse(jsonArea.value || '{}') : fromForm();
  } catch (error) {
    toast(`The arguments are not valid JSON: ${error.message}`, { error: true });
    return;
  }
  const scenario = root.querySelector('#try-scenario').value || null;
  try {
    const answer = await api.post('/call', { tool: tool.name, arguments: args, scenario });
    show(tool.name, args, scenario, answer);
  } catch (error) {
    toast(error.message, { error: true });
  }
}

function show(tool, args, scenario, answer) {
  const command = `careem-mcp call ${tool} '${JSON.stringify(args)}'${scenario ? ` --scenario ${scenario}` : ''}`;
  const chosen = answer.scenario
    ? `${answer.scenario}${answer.forced ? ' (forced)' : ''}`
    : `none (${answer.decision})`;
  clear(resultEl).append(
    h('div', { class: 'result-head' },
      h('span', { class: `outcome ${answer.result.isError ? 'bad' : 'good'}` }, answer.result.isError ? 'isError' : 'ok'),
      h('span', {}, 'scenario: ', h('strong', { id: 'try-scenario-used' }, chosen)),
      h('span', { class: 'duration' }, `${(answer.micros / 1000).toFixed(2)} ms`)),
    h('p', { class: 'command' }, h('code', {}, command)),
    h('h3', {}, 'Answer'),
    jsonView(answerValue(answer.result), { open: 3 }),
    h('details', { class: 'mcp' },
      h('summary', {}, 'The MCP result as a client receives it'),
      jsonView(answer.result, { open: 3 }),
      h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', { id: 'try-raw' }, JSON.stringify(answer.result)))));
}

/** What the answer says: structuredContent, else the text item read as JSON, else the text. */
function answerValue(result) {
  if (result.structuredContent) return result.structuredContent;
  const text = result.content.map((c) => c.text ?? '').join('');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
