import { items } from '../api.js';
import { actionForm, load, section } from '../components.js';
import { h, table, when } from '../dom.js';

/** Open SOS alerts (CONTRACT §14), each resolved with a reason; the list reloads every 10 s
 * unless a reason is being typed. */
export function sosView(main) {
  const list = h('div', { id: 'sos-list' });
  const refresh = () =>
    load(list, '/admin/sos?status=open', 'The SOS list', (body) =>
      table(
        [
          ['Raised', (a) => when(a.created_at)],
          ['Ride', (a) => h('a', { href: '#rides', onclick: () => sessionStorage.setItem('console.ride', a.ride_id) }, a.ride_id)],
          [
            'By',
            (a) =>
              typeof a.raised_by === 'object' && a.raised_by
                ? `${a.raised_by.role ?? ''} ${a.raised_by.id ?? ''}`
                : String(a.raised_by ?? '—'),
          ],
          [
            'Where',
            (a) =>
              a.latitude === null || a.latitude === undefined
                ? 'unknown'
                : `${Number(a.latitude).toFixed(5)}, ${Number(a.longitude).toFixed(5)}`,
          ],
          [
            '',
            (a) =>
              actionForm({
                name: 'resolve-sos',
                label: 'Resolve',
                send: (v) => ({ method: 'POST', path: `/admin/sos/${a.id}/resolve`, body: { reason: v.reason } }),
                done: refresh,
              }),
          ],
        ],
        items(body),
        { empty: 'No open SOS alert.' },
      ),
    );
  main.append(section('Open SOS alerts', list));
  void refresh();
  // A reason being typed is not wiped by the next reload.
  const timer = setInterval(() => [...list.querySelectorAll('input')].some((i) => i.value) || refresh(), 10_000);
  return () => clearInterval(timer);
}
