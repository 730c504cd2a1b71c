// Small DOM helpers shared by the panels. Text always goes in through textContent: nothing from
// a definition, a link or the engine ever reaches innerHTML.

/** The element with this id (throws when the page lacks it: a wiring mistake, not user input). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no element #${id}`);
  return el;
}

/**
 * Create an element: h('li', { className: 'x', title: 't', dataset: {k: 'v'} }, child, 'text', ...).
 * Strings become text nodes.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else if (k === 'className') el.className = v;
    // Rule: htmlFor is set as a property: as an attribute it would be written "htmlfor" and
    // tie no label to its field, leaving the field unnamed for screen readers.
    else if (k === 'htmlFor') el.htmlFor = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return el;
}

/** True when the key event belongs to a text field (page shortcuts must leave it alone). */
export function isTyping(event) {
  const t = event.target;
  return !!t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
}

/**
 * Set an element's text only when it differs: writing the same text still replaces the text node
 * and costs the page a style, layout and paint pass (the counters redraw several times a second
 * while a search runs, beside the workers).
 */
export function setText(el, text) {
  const t = text === null || text === undefined ? '' : String(text); // as textContent = null
  if (el.textContent !== t) el.textContent = t;
}

// A command-line option in a message ("-r", "--no-orbits", "-s 1000,12" is two: the option and
// its value): at the start of a word, after a space, an opening bracket or a quote.
const OPTION_TOKEN = /(^|[\s("'\u201c])(--?[A-Za-z][\w-]*)/g;

/**
 * Set a message's text (as setText) with each command-line option it names kept on one line:
 * browsers may break a line after an option's hyphen ("-" at a line's end, "r" below it). The
 * options go in as nowrap spans' text; the message reads and copies as the same text.
 */
export function setMessage(el, text) {
  const t = text === null || text === undefined ? '' : String(text);
  if (el.textContent === t) return;
  const parts = [];
  let at = 0;
  for (const m of t.matchAll(OPTION_TOKEN)) {
    const start = m.index + m[1].length;
    if (start > at) parts.push(t.slice(at, start));
    parts.push(h('span', { className: 'option-token' }, m[2]));
    at = start + m[2].length;
  }
  if (at < t.length) parts.push(t.slice(at));
  el.replaceChildren(...parts);
}

/**
 * Set a property (hidden, disabled, value, max, checked, title, a dataset entry...) only when it
 * differs. The panels render the whole state at every change, and while a search runs the
 * counters change five times a second: writing an unchanged value still invalidates the
 * element's style, and writing a form control's value makes Chromium's form tracking force a
 * layout (FormControlDidChange: 57 ms of the main thread per 2-worker Tetris Cube search, traced).
 */
export function setProp(el, key, value) {
  if (el[key] !== value) el[key] = value;
}

/** Set an attribute only when it differs (see setProp). */
export function setAttr(el, name, value) {
  const v = String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}
