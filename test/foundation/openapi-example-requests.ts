import { DEV_CODE, freshEmail, freshPhone, verifyContact } from '../auth/auth-helpers';
import type { StripeFake } from '../fakes/stripe-fake';
import { acceptedRide, bookRide, onlineDriver, setStatus } from '../rides/ride-helpers';
import { createOperator, createUser, TestUser } from '../support/factories';
import type { TestApp } from '../support/test-app';

type Json = Record<string, unknown>;
export type ExampleRequest = (body: Json, method: string, path: string) => Promise<{ statusCode: number; body: string }>;

/**
 * How to send each operation's example body, by operationId: what the request needs first (a signed-in
 * user, a booked or accepted ride, a card, an onboarded driver), then the request with the example as
 * its body (a contact made unique where the example's would collide). Used by openapi-examples.
 */
export async function exampleRequests(t: TestApp, fake: StripeFake): Promise<Record<string, ExampleRequest>> {
  const passenger = await createUser(t);
  const admin = await createOperator(t, 'admin');
  const call = (method: string, url: string, payload: unknown, token?: string) =>
    t.request({ method: method.toUpperCase() as 'POST', url, payload: payload as object, token });
  type Contact = { phone?: string; email?: string };
  const fresh = (body: Json): Json & Contact => ({ ...body, ...(body.phone ? { phone: freshPhone() } : {}), ...(body.email ? { email: freshEmail() } : {}) });
  const cancelAfter = async (res: { statusCode: number; body: string }, token: string) => {
    if (res.statusCode === 201) await call('post', `/api/v1/rides/${JSON.parse(res.body).id}/cancel`, undefined, token);
    return res;
  };
  return {
    AuthController_sendOtp: (body, m, p) => call(m, p, fresh(body)),
    AuthController_verifyOtp: async (body, m, p) => {
      const contact = fresh(body);
      await call('post', '/api/v1/auth/send-otp', { phone: contact.phone, email: contact.email });
      // The code is the one the server sent (here the fixed development code).
      return call(m, p, { ...contact, otp: DEV_CODE });
    },
    AuthController_register: async (body, m, p) => {
      const contact = fresh(body);
      const verified = await verifyContact(t, { phone: contact.phone, email: contact.email });
      return call(m, p, contact, verified.access_token);
    },
    AuthController_login: async (body, m, p) => {
      const contact = fresh(body);
      const verified = await verifyContact(t, { phone: contact.phone, email: contact.email });
      await call('post', '/api/v1/auth/register', { role: 'passenger', first_name: 'Ada', phone: contact.phone, email: contact.email }, verified.access_token);
      const proof = await verifyContact(t, { phone: contact.phone, email: contact.email });
      return call(m, p, contact, proof.access_token);
    },
    AuthController_refresh: (body, m, p) => call(m, p, { ...body, refresh_token: passenger.refreshToken }),
    RidesController_estimate: (body, m, p) => call(m, p, body, passenger.accessToken),
    RidesController_book: async (body, m, p) => cancelAfter(await call(m, p, body, passenger.accessToken), passenger.accessToken),
    RidesController_cancel: async (body, m, p) => {
      const ride = await bookRide(t, passenger);
      return call(m, p.replace('{ride_id}', ride.id), body, passenger.accessToken);
    },
    RidesController_changeStatus: async (body, m, p) => {
      const { driver, rideId } = await acceptedRide(t);
      return call(m, p.replace('{ride_id}', rideId), body, driver.accessToken);
    },
    RidesController_raiseOffer: async (body, m, p) => {
      const owner = await createUser(t);
      const ride = await bookRide(t, owner);
      return cancelAfter(await call(m, p.replace('{ride_id}', ride.id), body, owner.accessToken), owner.accessToken);
    },
    TipsController_tip: async (body, m, p) => {
      const owner = await createUser(t, { walletBalanceMinor: 100_000 });
      const { driver, rideId } = await acceptedRide(t, { passenger: owner });
      for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
      return call(m, p.replace('{ride_id}', rideId), body, owner.accessToken);
    },
    DriversController_updateProfile: async (body, m, p) => call(m, p, body, (await createUser(t, { role: 'driver' })).accessToken),
    DriversController_setStatus: async (body, m, p) => call(m, p, body, (await createUser(t, { role: 'driver' })).accessToken),
    DriversController_updateLocation: async (body, m, p) => call(m, p, body, (await onlineDriver(t)).accessToken),
    BidsController_submit: async (body, m, p) => {
      const owner: TestUser = await createUser(t);
      const ride = await bookRide(t, owner);
      return call(m, p.replace('{ride_id}', ride.id), body, (await onlineDriver(t)).accessToken);
    },
    UsersController_updateProfile: async (body, m, p) => call(m, p, fresh(body), (await createUser(t)).accessToken),
    RideChatController_send: async (body, m, p) => {
      const { passenger: rider, rideId } = await acceptedRide(t);
      return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
    },
    CardsController_setDefault: async (body, m, p) => {
      const owner = await createUser(t);
      const setup = await call('post', '/api/v1/payments/cards/setup', undefined, owner.accessToken);
      const card = fake.confirmSetupIntent(JSON.parse(setup.body).setup_intent_id).paymentMethod.id;
      return call(m, p, { ...body, card_id: card }, owner.accessToken);
    },
    PayoutsController_payOut: async (body, m, p) => {
      const driver = await createUser(t, { role: 'driver', walletBalanceMinor: 1_000_000 });
      await call('post', '/api/v1/driver/payouts/account', undefined, driver.accessToken);
      const [row] = await t.db.query(`SELECT stripe_account_id FROM payout_accounts WHERE driver_id = $1`, [driver.id]);
      await fake.sendWebhook(`${t.baseUrl}/api/v1/payments/stripe/webhook`, fake.event('account.updated', fake.completeOnboarding(row.stripe_account_id)));
      return call(m, p, body, driver.accessToken);
    },
    // Stripe signs the bytes it sends.
    StripeWebhooksController_receive: (body, m, p) => {
      const payload = JSON.stringify(body);
      return t.request({
        method: 'POST',
        url: p,
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': fake.signatureHeader(payload) },
      });
    },
    AdminOperatorsController_add: (body, m, p) => call(m, p, fresh(body), admin.accessToken),
    AdminRidesController_cancel: async (body, m, p) => call(m, p.replace('{ride_id}', (await acceptedRide(t)).rideId), body, admin.accessToken),
    AdminSosController_resolve: async (body, m, p) => {
      const { passenger: rider, rideId } = await acceptedRide(t);
      const sos = await call('post', `/api/v1/rides/${rideId}/sos`, {}, rider.accessToken);
      return call(m, p.replace('{id}', String(JSON.parse(sos.body).id)), body, admin.accessToken);
    },
    EmergencyContactsController_put: (body, m, p) => call(m, p, body, passenger.accessToken),
    SosController_raise: async (body, m, p) => {
      const { passenger: rider, rideId } = await acceptedRide(t);
      return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
    },
    SosController_answer: async (body, m, p) => {
      const { passenger: rider, rideId } = await acceptedRide(t);
      return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
    },
    AdminPromoCodesController_create: (body, m, p) => call(m, p, { ...body, code: `EX-${freshPhone().slice(-9)}` }, admin.accessToken),
    AdminPromoCodesController_update: async (body, m, p) => {
      const code = `EX-${freshPhone().slice(-9)}`;
      await call('post', '/api/v1/admin/promo-codes', { code, discount_type: 'fixed', discount_value: 1, reason: 'An example to change' }, admin.accessToken);
      return call(m, p.replace('{code}', code), body, admin.accessToken);
    },
    AdminUsersController_block: async (body, m, p) => call(m, p.replace('{id}', String((await createUser(t)).id)), body, admin.accessToken),
    AdminUsersController_unblock: async (body, m, p) => call(m, p.replace('{id}', String((await createUser(t)).id)), body, admin.accessToken),
    AdminDriversController_approve: async (body, m, p) =>
      call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'pending' })).id)), body, admin.accessToken),
    AdminDriversController_reject: async (body, m, p) =>
      call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'pending' })).id)), body, admin.accessToken),
    AdminDriversController_suspend: async (body, m, p) =>
      call(m, p.replace('{id}', String((await createUser(t, { role: 'driver' })).id)), body, admin.accessToken),
    AdminDriversController_reinstate: async (body, m, p) =>
      call(m, p.replace('{id}', String((await createUser(t, { role: 'driver', driverStatus: 'suspended' })).id)), body, admin.accessToken),
    AdminWalletsController_adjust: async (body, m, p) =>
      call(m, p.replace('{user_id}', String((await createUser(t, { walletBalanceMinor: 100_000 })).id)), body, admin.accessToken),
    AdminOperatorsController_remove: async (body, m, p) => call(m, p.replace('{id}', String((await createOperator(t, 'support')).id)), body, admin.accessToken),
    AdminRideRefundsController_refund: async (body, m, p) => {
      const owner = await createUser(t, { walletBalanceMinor: 100_000 });
      const { driver, rideId } = await acceptedRide(t, { passenger: owner, payment: 'wallet' });
      for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
      return call(m, p.replace('{ride_id}', rideId), body, admin.accessToken);
    },
    // A completed ride per body: each side rates a ride once.
    RideRatingsController_rate: async (body, m, p) => {
      const { passenger: rider, driver, rideId } = await acceptedRide(t);
      for (const status of ['driver_arrived', 'started', 'completed']) await setStatus(t, driver, rideId, status);
      return call(m, p.replace('{ride_id}', rideId), body, rider.accessToken);
    },
  };
}
