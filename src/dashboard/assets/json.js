// Readable, collapsible JSON: objects and arrays are <details> (keyboard-operable as they
// are), opened to `open` levels deep; scalars are coloured by type.

import { h, plural } from './dom.js';

export function jsonView(value, { open = 2 } = {}) {
  return h('div', { class: 'json' }, node(value, open, null));
}

function node(value, open, key) {
  const label = key === null ? null : h('span', { class: 'k' }, JSON.stringify(key), ': ');
  if (value === null || typeof value !== 'object') {
    return h('div', { class: 'row' }, label, scalar(value));
  }
  const isArray = Array.isArray(value);
  const entries = isArray ? value.map((v, i) => [i, v]) : Object.entries(value);
  if (entries.length === 0) {
    return h('div', { class: 'row' }, label, h('span', { class: 'p' }, isArray ? '[]' : '{}'));
  }
  const count = plural(entries.length, isArray ? 'item' : 'key');
  return h('details', { class: 'node', open: open > 0 },
    h('summary', {}, label, h('span', { class: 'p' }, isArray ? '[' : '{'), h('span', { class: 'count' }, count)),
    h('div', { class: 'children' }, entries.map(([k, v]) => node(v, open - 1, isArray ? null : k))),
    h('span', { class: 'p close' }, isArray ? ']' : '}'));
}

function scalar(value) {
  const kind = value === null ? 'null' : typeof value;
  return h('span', { class: `v ${kind}` }, JSON.stringify(value));
}
