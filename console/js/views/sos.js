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
              [a.raised_by, a.raised_by_user_id && `#${a.raised_by_user_id}`, a.source === 'ride_check' && '(ride check)'].filter(Boolean).join(' ') || '—',
          ],
          ['Contacts texted', (a) => textsSummary(a.texts)],
          [
            'Where',
            (a) => (a.latitude === null || a.latitude === undefined ? 'unknown' : `${Number(a.latitude).toFixed(5)}, ${Number(a.longitude).toFixed(5)}`),
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

/** How the SMS to the raiser's emergency contacts went: "2 sent, 1 failed" (a failure's reason on hover). */
function textsSummary(texts) {
  if (!Array.isArray(texts) || !texts.length) return 'none';
  const counts = {};
  for (const text of texts) counts[text.status] = (counts[text.status] ?? 0) + 1;
  const failed = texts.filter((text) => text.last_error).map((text) => `${text.name}: ${text.last_error}`);
  return h(
    'span',
    { title: failed.join('\n') || undefined },
    Object.entries(counts)
      .map(([status, n]) => `${n} ${status}`)
      .join(', '),
  );
}
