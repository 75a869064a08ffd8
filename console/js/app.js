import { saveSession, session, whenSignedOut } from './api.js';
import { h, show } from './dom.js';
import { auditView } from './views/audit.js';
import { driversView } from './views/drivers.js';
import { liveView } from './views/live.js';
import { operatorsView } from './views/operators.js';
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
  ['operators', 'Operators', operatorsView],
  ['audit', 'Audit trail', auditView],
];

const root = document.getElementById('app');
/** A view may return a function that stops what it started (the live map's polling). */
let stop = null;

function render(notice) {
  stop?.();
  stop = null;
  const current = session();
  if (!current) {
    show(root, signInView({ notice, signedIn: (value) => (saveSession(value), render()) }));
    return;
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
      h('nav', {}, VIEWS.map(([k, label]) => h('a', { href: `#${k}`, class: k === key ? 'current' : '', 'aria-current': k === key ? 'page' : undefined }, label))),
      h('span', { class: 'who' }, `${current.email} · ${current.operator_role ?? 'operator'}`),
      h('button', { type: 'button', class: 'quiet', id: 'sign-out', onclick: () => (saveSession(null), render('Signed out.')) }, 'Sign out'),
    ),
    main,
  );
  stop = view(main) ?? null;
}

whenSignedOut((message) => render(message));
window.addEventListener('hashchange', () => render());
render();
