import { actionForm, fieldList, load, section } from '../components.js';
import { h, money, personName, show, table, when } from '../dom.js';

const FINAL = ['completed', 'cancelled', 'expired'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A ride by its id: its history, cancel (any non-final ride) and refund, each with a reason. */
export function ridesView(main) {
  const detail = h('div', { id: 'ride-detail' });
  const id = h('input', { name: 'ride_id', required: true, placeholder: 'ride id (UUID)', size: 38 });
  const open = (rideId) => load(detail, `/admin/rides/${rideId}`, 'The ride page', (ride) => rideCard(ride, () => open(rideId)));
  const form = h(
    'form',
    {
      class: 'inline',
      id: 'ride-lookup',
      onsubmit: (event) => {
        event.preventDefault();
        const value = id.value.trim();
        if (!UUID.test(value))
          return show(detail, h('p', { class: 'status error', role: 'status' }, 'A ride id is a UUID such as 3f2b…-…; the ride code is not enough.'));
        void open(value);
      },
    },
    h('label', {}, h('span', {}, 'Ride id'), id),
    h('button', { type: 'submit' }, 'Find'),
  );
  const recent = h('div', { id: 'rides-list' });
  const status = h(
    'select',
    { name: 'status' },
    ['', 'scheduled', 'requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'].map((v) =>
      h('option', { value: v }, v || 'any status'),
    ),
  );
  const person = h('input', { name: 'user_id', inputMode: 'numeric', placeholder: 'any', size: 8 });
  const role = h('select', { name: 'as' }, h('option', { value: 'passenger_id' }, 'as passenger'), h('option', { value: 'driver_id' }, 'as driver'));
  const list = () => {
    const query = new URLSearchParams({ limit: '20' });
    if (status.value) query.set('status', status.value);
    if (person.value.trim()) query.set(role.value, person.value.trim());
    return load(recent, `/admin/rides?${query}`, 'The rides list', (body) =>
      table(
        [
          ['Booked', (r) => when(r.created_at)],
          ['Code', (r) => r.ride_code ?? '—'],
          ['Status', (r) => r.status],
          ['Passenger', (r) => (r.passenger ? `${personName(r.passenger)} (#${r.passenger.id})` : '—')],
          ['Driver', (r) => (r.driver ? `${personName(r.driver)} (#${r.driver.id})` : '—')],
          ['', (r) => h('button', { type: 'button', class: 'quiet', onclick: () => ((id.value = r.id), open(r.id)) }, 'Open')],
        ],
        body.items ?? [],
        { empty: 'No ride matches.' },
      ),
    );
  };
  const filter = h(
    'form',
    { class: 'inline', id: 'rides-filter', onsubmit: (event) => (event.preventDefault(), list()) },
    h('label', {}, h('span', {}, 'Status'), status),
    h('label', {}, h('span', {}, 'User id'), person),
    h('label', {}, h('span', {}, 'Role'), role),
    h('button', { type: 'submit' }, 'List'),
  );
  main.append(section('Find a ride', form, h('h3', {}, 'Newest rides'), filter, recent), detail);
  void list();
  // Arriving from another screen's link to a ride (an SOS alert).
  const asked = sessionStorage.getItem('console.ride');
  sessionStorage.removeItem('console.ride');
  if (asked && UUID.test(asked)) {
    id.value = asked;
    void open(asked);
  }
}

function rideCard(ride, refresh) {
  const currency = ride.currency;
  const open = !FINAL.includes(ride.status);
  return h(
    'div',
    {},
    section(
      `Ride ${ride.ride_code ?? ''}`,
      fieldList([
        ['Id', ride.id],
        ['Status', ride.status],
        ['Passenger', ride.passenger ? `${personName(ride.passenger)} (#${ride.passenger.id})` : undefined],
        ['Driver', ride.driver ? `${personName(ride.driver)} (#${ride.driver.id})` : '—'],
        ['From', ride.pickup?.address],
        ['To', ride.dropoff?.address],
        ['Fare', money(ride.fare ?? ride.estimated_fare, currency)],
        ['Payment', [ride.payment_method, ride.payment_status].filter(Boolean).join(', ')],
        ['Refunded', ride.refunded_amount !== undefined ? money(ride.refunded_amount, currency) : undefined],
        ['Cancelled by', ride.cancelled_by ?? undefined],
        ['Booked', when(ride.created_at)],
      ]),
      h('h3', {}, 'History'),
      table(
        [
          ['When', (e) => when(e.at)],
          ['Became', (e) => e.type],
          ['By', (e) => [e.actor, e.actor_id].filter((v) => v !== null && v !== undefined).join(' ') || '—'],
          ['Why', (e) => e.reason ?? ''],
        ],
        ride.events ?? [],
        { empty: 'No events recorded.', class: 'list events' },
      ),
    ),
    open
      ? section(
          'Cancel',
          actionForm({
            name: 'cancel-ride',
            label: 'Cancel ride',
            danger: true,
            send: (v) => ({ method: 'POST', path: `/admin/rides/${ride.id}/cancel`, body: { reason: v.reason } }),
            done: refresh,
          }),
        )
      : null,
    section(
      'Refund',
      h('p', { class: 'muted' }, 'Never more than the passenger paid for the ride (fare, fee and tip).'),
      actionForm({
        name: 'refund-ride',
        label: 'Refund',
        fields: [{ name: 'amount', label: `Amount${currency ? ` (${currency})` : ''}`, type: 'number', step: '0.01' }],
        send: (v) => ({ method: 'POST', path: `/admin/rides/${ride.id}/refunds`, body: { amount: Number(v.amount), reason: v.reason } }),
        done: refresh,
      }),
    ),
  );
}
