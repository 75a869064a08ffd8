import { saveSession, session, whenSignedOut } from './api.js';
import { h, show, when } from './dom.js';
import { listen, stop as stopListening } from './live-events.js';
import { auditView } from './views/audit.js';
import { driversView } from './views/drivers.js';
import { liveView } from './views/live.js';
import { operatorsView } from './views/operators.js';
import { promosView } from './views/promos.js';
import { ridesView } from './views/rides.js';
import { signInView } from './views/sign-in.js';
import { sosView } from './views/sos.js';
import { usersView } from './views/users.js';

/** The screens, in the order of the navigation; the hash names the one shown (#drivers). */
const VIEWS = [
  ['drivers', 'Drivers', driversView],
  ['users', 'Users', usersView],
  ['rides', 'Rides', ridesView],
  ['live', 'Live map', liveView],
  ['sos', 'SOS alerts', sosView],
  ['promos', 'Promo codes', promosView],
  ['operators', 'Operators', operatorsView],
  ['audit', 'Audit trail', auditView],
];

const root = document.getElementById('app');
/** A view may return a function that stops what it started (the live map's polling). */
let stop = null;
/** The live socket's state and the alerts it brought, kept across screens. */
let liveState = 'offline';
const alerts = h('div', { id: 'alerts', role: 'alert' });
let listening = false;

function signOut(notice) {
  stopListening();
  listening = false;
  alerts.replaceChildren();
  saveSession(null);
  render(notice);
}

function alertOf(message) {
  const ride = message.data?.ride ?? {};
  const what = message.type === 'sos_raised' ? 'SOS raised' : 'Payment failed';
  const link = message.type === 'sos_raised' ? '#sos' : '#rides';
  return h(
    'p',
    { class: `alert ${message.type}` },
    h('strong', {}, what),
    ` on ride ${ride.ride_code ?? message.ride_id ?? ''} at ${when(message.at)} `,
    h('a', { href: link, onclick: () => ride.id && sessionStorage.setItem('console.ride', ride.id) }, 'Open'),
    ' ',
    h('button', { type: 'button', class: 'quiet', onclick: (event) => event.target.parentElement.remove() }, 'Dismiss'),
  );
}

function render(notice) {
  stop?.();
  stop = null;
  const current = session();
  if (!current) {
    show(root, signInView({ notice, signedIn: (value) => (saveSession(value), render()) }));
    return;
  }
  if (!listening) {
    listening = true;
    listen({
      onEvent: (message) => alerts.prepend(alertOf(message)),
      onState: (state) => {
        liveState = state;
        const badge = document.getElementById('live-state');
        if (!badge) return;
        badge.textContent = state;
        badge.className = state;
      },
    });
  }
  const name = location.hash.slice(1).split('?')[0];
  const [key, , view] = VIEWS.find(([k]) => k === name) ?? VIEWS[0];
  const main = h('div', { class: 'view', id: `view-${key}` });
  show(
    root,
    h(
      'header',
      { class: 'top' },
      h('strong', {}, 'Operator console'),
      h(
        'nav',
        {},
        VIEWS.map(([k, label]) => h('a', { href: `#${k}`, class: k === key ? 'current' : '', 'aria-current': k === key ? 'page' : undefined }, label)),
      ),
      h('span', { id: 'live-state', class: liveState, title: 'Alerts (SOS, failed payments) arrive over the live socket' }, liveState),
      h('span', { class: 'who' }, `${current.email} · ${current.operator_role ?? 'operator'}`),
      h('button', { type: 'button', class: 'quiet', id: 'sign-out', onclick: () => signOut('Signed out.') }, 'Sign out'),
    ),
    alerts,
    main,
  );
  stop = view(main) ?? null;
}

whenSignedOut((message) => signOut(message));
window.addEventListener('hashchange', () => render());
render();
