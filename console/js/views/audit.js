import { load, section } from '../components.js';
import { h, table, when } from '../dom.js';

const LIMIT = 20;

/** The audit trail, newest first, by target and/or actor, a page at a time. */
export function auditView(main) {
  const results = h('div', { id: 'audit-list' });
  const target = h('input', { name: 'target_id', placeholder: 'any' });
  const actor = h('input', { name: 'actor_id', inputMode: 'numeric', placeholder: 'any' });
  let page = 1;

  const refresh = () => {
    const query = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
    if (target.value.trim()) query.set('target_id', target.value.trim());
    if (actor.value.trim()) query.set('actor_id', actor.value.trim());
    return load(results, `/admin/audit?${query}`, 'The audit trail', (body) => {
      const pages = Math.max(1, Math.ceil((body.total ?? 0) / LIMIT));
      return h(
        'div',
        {},
        table(
          [
            ['When', (e) => when(e.created_at)],
            ['Who', (e) => (e.actor_id === null ? 'CLI' : `operator ${e.actor_id}`)],
            ['Action', (e) => h('code', {}, e.action)],
            ['Target', (e) => `${e.target_type} ${e.target_id}`],
            ['Reason', (e) => e.reason],
          ],
          body.items ?? [],
          { empty: 'No entries.' },
        ),
        h(
          'p',
          { class: 'pager' },
          h('button', { type: 'button', class: 'quiet', disabled: page <= 1, onclick: () => ((page -= 1), refresh()) }, '← Newer'),
          ` Page ${page} of ${pages} (${body.total ?? 0} entries) `,
          h('button', { type: 'button', class: 'quiet', disabled: page >= pages, onclick: () => ((page += 1), refresh()) }, 'Older →'),
        ),
      );
    });
  };

  const filter = h(
    'form',
    { class: 'inline', id: 'audit-filter', onsubmit: (event) => (event.preventDefault(), (page = 1), refresh()) },
    h('label', {}, h('span', {}, 'Target id'), target),
    h('label', {}, h('span', {}, 'Operator id'), actor),
    h('button', { type: 'submit' }, 'Filter'),
  );
  main.append(section('Audit trail', filter, results));
  void refresh();
}
