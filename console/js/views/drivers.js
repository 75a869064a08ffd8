import { api, fileUrl, items } from '../api.js';
import { actionForm, load, section, status } from '../components.js';
import { h, personName, show, when } from '../dom.js';

const STATUSES = ['pending', 'approved', 'rejected', 'suspended'];
const KINDS = { license: 'Driving licence', vehicle_registration: 'Vehicle registration', insurance: 'Insurance' };

/** Drivers by status (pending first): their documents, approve or reject (suspend, reinstate) with a reason. */
export function driversView(main) {
  const list = h('div', { id: 'drivers-list' });
  const which = h(
    'select',
    { name: 'status', onchange: () => refresh() },
    STATUSES.map((s) => h('option', { value: s }, s)),
  );
  const refresh = () =>
    load(list, `/admin/drivers?status=${which.value}&limit=50`, 'The drivers list', (body) => {
      const drivers = items(body);
      if (!drivers.length) return h('p', { class: 'muted empty' }, `No ${which.value} drivers.`);
      return h(
        'div',
        { class: 'drivers' },
        drivers.map((driver) => driverCard(driver, refresh)),
      );
    });
  main.append(section('Drivers', h('form', { class: 'inline', onsubmit: (e) => e.preventDefault() }, h('label', {}, h('span', {}, 'Status'), which)), list));
  void refresh();
}

/** A driver record names its user by id (the driver's id in every /admin/drivers path); the name comes from the user. */
function driverCard(driver, refresh) {
  const id = driver.user_id ?? driver.id;
  const docs = h('div', { class: 'documents' });
  const preview = h('div', { class: 'preview' });
  const title = h('span', {}, `Driver ${id}`);
  const contact = h('span', {});
  const vehicle = [driver.vehicle_color, driver.vehicle_make, driver.vehicle_model, driver.vehicle_year].filter(Boolean).join(' ');
  const card = h(
    'article',
    { class: 'driver card', dataset: { driverId: id } },
    h('h3', {}, title, h('span', { class: `badge ${driver.status}` }, driver.status ?? '')),
    h(
      'p',
      { class: 'muted' },
      contact,
      [
        vehicle,
        driver.vehicle_plate && `plate ${driver.vehicle_plate}`,
        driver.license_number && `licence no. ${driver.license_number}`,
        driver.vehicle_category_id && `category ${driver.vehicle_category_id}`,
      ]
        .filter(Boolean)
        .join(' · '),
    ),
    docs,
    preview,
    h('div', { class: 'actions' }, actions({ ...driver, id }, refresh)),
  );
  void api('GET', `/admin/users/${id}`).then((answer) => {
    const user = answer.ok ? (answer.body.user ?? answer.body) : null;
    if (!user) return;
    title.textContent = `${personName(user)} (#${id})`;
    contact.textContent = `${[user.phone, user.email].filter(Boolean).join(' · ')} · `;
  });
  void load(docs, `/admin/drivers/${id}/documents`, 'The document list', (body) => documentList(items(body), preview));
  return card;
}

function documentList(documents, preview) {
  if (!documents.length) return h('p', { class: 'muted' }, 'No documents uploaded.');
  return h(
    'ul',
    { class: 'document-list' },
    documents.map((doc) =>
      h(
        'li',
        { dataset: { documentId: doc.id, kind: doc.kind } },
        h('strong', {}, KINDS[doc.kind] ?? doc.kind),
        ` ${doc.content_type}, ${Math.ceil((doc.size ?? 0) / 1024)} KiB, ${when(doc.uploaded_at)} `,
        h('button', { type: 'button', class: 'quiet', onclick: () => open(doc, preview) }, 'View'),
      ),
    ),
  );
}

/** The file is fetched with the operator's token (it is served to operators only) and shown from a blob: URL. */
async function open(doc, preview) {
  const note = status();
  show(preview, note);
  note.say('Fetching…', 'busy');
  const file = await fileUrl(`/admin/documents/${doc.id}/file`);
  if (!file.url) return note.say(file.message, 'error');
  const ext = { 'image/jpeg': '.jpg', 'image/png': '.png', 'application/pdf': '.pdf' }[file.type] ?? '';
  const links = [
    h('a', { href: file.url, target: '_blank', rel: 'noopener' }, 'Open in a new tab'),
    ' · ',
    h('a', { href: file.url, download: `${doc.kind}-${doc.id}${ext}` }, 'Download'),
  ];
  show(
    preview,
    h('h4', {}, KINDS[doc.kind] ?? doc.kind),
    file.type.startsWith('image/')
      ? h('img', { src: file.url, alt: `${KINDS[doc.kind] ?? doc.kind} of the driver`, class: 'document-image' })
      : h('p', {}, `A ${file.type || 'file'}.`),
    h('p', {}, links, ' ', h('button', { type: 'button', class: 'quiet', onclick: () => (URL.revokeObjectURL(file.url), show(preview)) }, 'Close')),
  );
}

function actions(driver, refresh) {
  const write = (action, label, danger = false) =>
    h(
      'details',
      {},
      h('summary', {}, label),
      actionForm({
        name: `${action}-driver`,
        label,
        danger,
        send: (v) => ({ method: 'POST', path: `/admin/drivers/${driver.id}/${action}`, body: { reason: v.reason } }),
        done: refresh,
      }),
    );
  switch (driver.status) {
    case 'pending':
      return [write('approve', 'Approve'), write('reject', 'Reject', true)];
    case 'approved':
      return [write('suspend', 'Suspend', true)];
    case 'suspended':
      return [write('reinstate', 'Reinstate')];
    case 'rejected':
      return [write('approve', 'Approve')];
    default:
      return [];
  }
}
