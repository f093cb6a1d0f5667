// Building elements without innerHTML: everything shown comes from the journal or the tool
// files, which an agent's arguments can fill with markup, so text always goes in as text.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** `1 call`, `2 calls`: the count with its noun, plural unless the count is one. */
export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

let toastTimer;
/** A short message for the result of an action; errors stay until the next one. */
export function toast(message, { error = false } = {}) {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.classList.toggle('error', error);
  el.hidden = false;
  clearTimeout(toastTimer);
  if (!error) toastTimer = setTimeout(() => { el.hidden = true; }, 2500);
  else toastTimer = setTimeout(() => { el.hidden = true; }, 8000);
}
