import { actionForm, load, section } from '../components.js';
import { h, table, when } from '../dom.js';
import { items } from '../api.js';

const ROLES = ['support', 'ops', 'finance', 'admin'];

/** Every operator; an admin adds or removes one (others get "Not allowed for your role"). */
export function operatorsView(main) {
  const list = h('div', { id: 'operators-list' });
  const refresh = () =>
    load(list, '/admin/operators', 'The operators list', (body) =>
      table(
        [
          ['Id', (o) => String(o.id)],
          ['E-mail', (o) => o.email],
          ['Role', (o) => o.operator_role],
          ['Since', (o) => when(o.created_at)],
          [
            '',
            (o) =>
              h(
                'details',
                {},
                h('summary', {}, 'Remove'),
                actionForm({
                  name: 'remove-operator',
                  label: 'Remove operator',
                  danger: true,
                  send: (v) => ({ method: 'DELETE', path: `/admin/operators/${o.id}`, body: { reason: v.reason } }),
                  done: refresh,
                }),
              ),
          ],
        ],
        items(body),
        { empty: 'No operators.' },
      ),
    );
  main.append(
    section('Operators', list),
    section(
      'Add an operator',
      h('p', { class: 'muted' }, 'They sign in here with a code sent to that e-mail.'),
      actionForm({
        name: 'add-operator',
        label: 'Add operator',
        fields: [
          { name: 'email', label: 'E-mail', type: 'email' },
          { name: 'operator_role', label: 'Role', options: ROLES },
        ],
        send: (v) => ({
          method: 'POST',
          path: '/admin/operators',
          body: { email: v.email.trim(), operator_role: v.operator_role, reason: v.reason },
        }),
        done: refresh,
      }),
    ),
  );
  void refresh();
}
