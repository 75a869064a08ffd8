// The console's whole component style: h() builds elements, a view is a function returning one.
// No framework, no virtual DOM: views re-render their own subtree when their data changes.

/** h('button', {class: 'x', onclick: fn}, 'text', child) — strings become text nodes, never HTML. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && key !== 'list' && key !== 'form') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** The same for SVG elements: attributes only. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what a container shows. */
export function show(container, ...children) {
  container.replaceChildren();
  append(container, children);
  return container;
}

export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

export function money(amount, currency) {
  if (amount === undefined || amount === null) return '—';
  return `${Number(amount).toFixed(2)}${currency ? ` ${currency}` : ''}`;
}

export function personName(user) {
  if (!user) return '—';
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return name || user.email || user.phone || `#${user.id}`;
}

/** A table of rows; columns are [heading, row => cell]. */
export function table(columns, rows, options = {}) {
  if (!rows.length) return h('p', { class: 'muted empty' }, options.empty ?? 'Nothing here.');
  return h(
    'table',
    { class: options.class ?? 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map(([heading]) => h('th', {}, heading)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          { dataset: { id: row.id ?? '' } },
          columns.map(([, cell]) => h('td', {}, cell(row))),
        ),
      ),
    ),
  );
}
