import { items } from '../api.js';
import { actionForm, fieldList, load, section } from '../components.js';
import { h, money, personName, show, table, when } from '../dom.js';

/** Find a user by phone, e-mail or name; open one: wallet, driver record, block or unblock, adjust the wallet. */
export function usersView(main) {
  const results = h('div', { id: 'users-list' });
  const detail = h('div', { id: 'user-detail' });
  const query = h('input', { name: 'query', type: 'search', placeholder: 'phone, e-mail or name', required: true });

  const open = (id) => load(detail, `/admin/users/${id}`, 'The user page', (body) => userCard(body, () => open(id)));

  const search = () =>
    load(results, `/admin/users?query=${encodeURIComponent(query.value.trim())}&limit=50`, 'User search', (body) =>
      table(
        [
          ['Id', (u) => String(u.id)],
          ['Name', (u) => personName(u)],
          ['Role', (u) => u.role],
          ['Phone', (u) => u.phone ?? '—'],
          ['E-mail', (u) => u.email ?? '—'],
          ['State', (u) => (u.is_blocked ? 'blocked' : u.is_active === false ? 'inactive' : 'active')],
          ['', (u) => h('button', { type: 'button', class: 'quiet', onclick: () => open(u.id) }, 'Open')],
        ],
        items(body),
        { empty: 'No user matches.' },
      ),
    );

  main.append(
    section(
      'Find a user',
      h(
        'form',
        { class: 'inline', id: 'user-search', onsubmit: (e) => (e.preventDefault(), show(detail), search()) },
        h('label', {}, h('span', {}, 'Search'), query),
        h('button', { type: 'submit' }, 'Search'),
      ),
      results,
    ),
    detail,
  );
}

function userCard(body, refresh) {
  const user = body.user ?? body;
  const wallet = body.wallet;
  const driver = body.driver;
  const blocked = Boolean(user.is_blocked);
  return section(
    `User ${user.id}: ${personName(user)}`,
    fieldList([
      ['Role', user.role],
      ['Phone', user.phone],
      ['E-mail', user.email],
      ['State', blocked ? 'blocked' : user.is_active === false ? 'inactive' : 'active'],
      ['Joined', when(user.created_at)],
      ['Wallet', wallet ? money(wallet.balance, wallet.currency) : undefined],
      ['Driver', driver ? `${driver.status ?? ''}${driver.is_online ? ', online' : ''}` : undefined],
    ]),
    blocked
      ? actionForm({
          name: 'unblock-user',
          label: 'Unblock',
          send: (v) => ({ method: 'POST', path: `/admin/users/${user.id}/unblock`, body: { reason: v.reason } }),
          done: refresh,
        })
      : actionForm({
          name: 'block-user',
          label: 'Block',
          danger: true,
          send: (v) => ({ method: 'POST', path: `/admin/users/${user.id}/block`, body: { reason: v.reason } }),
          done: refresh,
        }),
    wallet
      ? h(
          'details',
          {},
          h('summary', {}, 'Adjust the wallet'),
          h('p', { class: 'muted' }, "A signed amount against the platform's ledger account (never below zero)."),
          actionForm({
            name: 'adjust-wallet',
            label: 'Adjust',
            fields: [{ name: 'amount', label: `Amount (${wallet.currency})`, type: 'number', step: '0.01' }],
            send: (v) => ({
              method: 'POST',
              path: `/admin/wallets/${user.id}/adjust`,
              body: { amount: Number(v.amount), reason: v.reason },
            }),
            done: refresh,
          }),
        )
      : null,
  );
}
