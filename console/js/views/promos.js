import { items } from '../api.js';
import { actionForm, load, section } from '../components.js';
import { h, money, table, when } from '../dom.js';

/** Promo codes (CONTRACT §13): the list, a new code, and switching one off or on, each with a reason. */
export function promosView(main) {
  const list = h('div', { id: 'promos-list' });
  const refresh = () =>
    load(list, '/admin/promo-codes?limit=100', 'The promo codes list', (body) =>
      table(
        [
          ['Code', (p) => h('code', {}, p.code)],
          ['Discount', (p) => (p.discount_type === 'percentage' ? `${p.discount_value} %` : money(p.discount_value, p.currency))],
          ['Used', (p) => `${p.used_count}${p.max_uses === null ? '' : ` of ${p.max_uses}`}`],
          ['Valid', (p) => `${p.valid_from ? when(p.valid_from) : 'now'} → ${p.valid_until ? when(p.valid_until) : 'no end'}`],
          ['State', (p) => (p.active ? 'active' : 'inactive')],
          [
            '',
            (p) =>
              h(
                'details',
                {},
                h('summary', {}, p.active ? 'Deactivate' : 'Activate'),
                actionForm({
                  name: p.active ? 'deactivate-promo' : 'activate-promo',
                  label: p.active ? 'Deactivate' : 'Activate',
                  danger: p.active,
                  send: (v) => ({
                    method: 'PATCH',
                    path: `/admin/promo-codes/${encodeURIComponent(p.code)}`,
                    body: { active: !p.active, reason: v.reason },
                  }),
                  done: refresh,
                }),
              ),
          ],
        ],
        items(body),
        { empty: 'No promo codes.' },
      ),
    );
  const create = actionForm({
    name: 'create-promo',
    label: 'Create code',
    fields: [
      { name: 'code', label: 'Code', placeholder: 'SUMMER10' },
      { name: 'discount_type', label: 'Type', options: ['percentage', 'fixed'] },
      { name: 'discount_value', label: 'Value', type: 'number', step: '0.01', min: '0.01' },
      { name: 'max_uses', label: 'Uses', type: 'number', step: '1', min: '1', optional: true },
      { name: 'description', label: 'Description', optional: true },
    ],
    send: (v) => ({
      method: 'POST',
      path: '/admin/promo-codes',
      body: {
        code: v.code.trim(),
        discount_type: v.discount_type,
        discount_value: Number(v.discount_value),
        ...(v.max_uses ? { max_uses: Number(v.max_uses) } : {}),
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
        reason: v.reason,
      },
    }),
    done: refresh,
  });
  main.append(section('Promo codes', list), section('New promo code', create));
  void refresh();
}
