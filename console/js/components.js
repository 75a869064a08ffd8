import { api, problem } from './api.js';
import { h, show } from './dom.js';

/** A line saying how the last action went (role="status" so screen readers hear it). */
export function status() {
  const el = h('p', { class: 'status', role: 'status' });
  el.say = (text, kind = 'ok') => {
    el.className = `status ${kind}`;
    el.textContent = text;
  };
  return el;
}

/**
 * An operator write: every one takes a reason (CONTRACT §13, 3 to 500 characters), some more fields.
 * fields: [{name, label, type?, step?, min?, options?, optional?}]; send(values) → {method, path, body}; done(answer) after a success.
 */
export function actionForm({ name, label, fields = [], send, done, danger = false }) {
  const result = status();
  const inputs = fields.map((field) => {
    const input = field.options
      ? h(
          'select',
          { name: field.name, required: true },
          field.options.map((o) => h('option', { value: o }, o)),
        )
      : h('input', {
          name: field.name,
          type: field.type ?? 'text',
          step: field.step,
          min: field.min,
          required: !field.optional,
          placeholder: field.placeholder ?? (field.optional ? 'optional' : ''),
        });
    return h('label', {}, h('span', {}, field.label), input);
  });
  const reason = h('input', { name: 'reason', required: true, minLength: 3, maxLength: 500, placeholder: 'Why (kept in the audit trail)' });
  const button = h('button', { type: 'submit', class: danger ? 'danger' : '' }, label);
  const form = h(
    'form',
    {
      class: 'action',
      dataset: { action: name },
      onsubmit: async (event) => {
        event.preventDefault();
        const values = Object.fromEntries(new FormData(form));
        button.disabled = true;
        result.say('Sending…', 'busy');
        const call = send(values);
        const answer = await api(call.method, call.path, call.body);
        button.disabled = false;
        if (!answer.ok) return result.say(problem(answer, label), 'error');
        result.say(`${label}: done.`);
        form.reset();
        await done?.(answer);
      },
    },
    inputs,
    h('label', { class: 'reason' }, h('span', {}, 'Reason'), reason),
    button,
    result,
  );
  return form;
}

/** Loads, then shows, a piece of a view; errors and missing endpoints end up in the same place. */
export async function load(container, path, what, render) {
  show(container, h('p', { class: 'muted' }, 'Loading…'));
  const answer = await api('GET', path);
  if (!answer.ok) {
    show(container, h('p', { class: 'status error', role: 'status' }, problem(answer, what)));
    return answer;
  }
  show(container, render(answer.body));
  return answer;
}

export function section(title, ...children) {
  return h('section', { class: 'card' }, h('h2', {}, title), children);
}

export function fieldList(pairs) {
  return h(
    'dl',
    { class: 'fields' },
    pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v === null || v === '' ? '—' : v)]),
  );
}
