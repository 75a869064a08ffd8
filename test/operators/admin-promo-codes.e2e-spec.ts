import { bookRide } from '../rides/ride-helpers';
import { createOperator, createUser, TestOperator } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const PROMOS = '/api/v1/admin/promo-codes';
const REASON = 'Summer campaign agreed with marketing';
const A = { address: 'A', latitude: 52.52, longitude: 13.4 };
const B = { address: 'B', latitude: 52.5, longitude: 13.37 };

describe('operators and promo codes (CONTRACT §13)', () => {
  let t: TestApp;
  let ops: TestOperator;
  let support: TestOperator;

  const create = (payload: object, token = ops.accessToken) => t.request({ method: 'POST', url: PROMOS, token, payload: { reason: REASON, ...payload } });
  const patch = (code: string, payload: object, token = ops.accessToken) =>
    t.request({ method: 'PATCH', url: `${PROMOS}/${code}`, token, payload: { reason: REASON, ...payload } });
  const auditOf = async (code: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/admin/audit?target_id=${code}`, token: support.accessToken })).json().items;

  beforeAll(async () => {
    t = await startTestApp();
    [ops, support] = await Promise.all([createOperator(t, 'ops'), createOperator(t, 'support')]);
  });
  afterAll(() => t.close());

  it('creates percentage and fixed codes with the CLI fields, audited; lists them newest first', async () => {
    const percent = await create({
      code: 'summer10',
      discount_type: 'percentage',
      discount_value: 10,
      max_discount: 5,
      valid_from: '2026-01-01T00:00:00Z',
      valid_until: '2036-01-01T00:00:00Z',
      max_uses: 100,
      description: 'Ten percent off',
    });
    expect(percent.statusCode).toBe(201);
    expect(percent.json()).toEqual({
      id: expect.any(Number),
      code: 'SUMMER10',
      description: 'Ten percent off',
      discount_type: 'percentage',
      discount_value: 10,
      max_discount: 5,
      currency: t.config.currency,
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_until: '2036-01-01T00:00:00.000Z',
      max_uses: 100,
      used_count: 0,
      active: true,
      created_at: expect.any(String),
    });
    const fixed = await create({ code: 'FLAT-350', discount_type: 'fixed', discount_value: 3.5 });
    expect(fixed.json()).toMatchObject({
      code: 'FLAT-350',
      discount_value: 3.5,
      max_discount: null,
      valid_from: null,
      valid_until: null,
      max_uses: null,
    });
    expect((await t.db.query(`SELECT discount_value FROM promo_codes WHERE code = 'FLAT-350'`))[0].discount_value).toBe(350);

    const list = (await t.request({ method: 'GET', url: `${PROMOS}?limit=2`, token: support.accessToken })).json();
    expect(list).toMatchObject({ page: 1, limit: 2, items: [{ code: 'FLAT-350' }, { code: 'SUMMER10' }] });
    expect(list.total).toBeGreaterThanOrEqual(2);

    expect(await auditOf('SUMMER10')).toEqual([
      expect.objectContaining({
        actor_id: ops.id,
        action: 'promo_codes.create',
        target_type: 'promo_code',
        target_id: 'SUMMER10',
        reason: REASON,
        details: expect.objectContaining({ discount_value: 10, max_uses: 100 }),
      }),
    ]);
  });

  it('a code that exists is 409, written once and audited once', async () => {
    expect((await create({ code: 'TWICE', discount_type: 'fixed', discount_value: 1 })).statusCode).toBe(201);
    const again = await create({ code: 'twice', discount_type: 'percentage', discount_value: 5 });
    expect([again.statusCode, again.json().message]).toEqual([409, 'Promo code TWICE already exists']);
    expect(await auditOf('TWICE')).toHaveLength(1);
  });

  it('concurrent creates of one code: one 201, the rest 409', async () => {
    const results = await Promise.all([1, 2, 3].map(() => create({ code: 'RACE', discount_type: 'fixed', discount_value: 1 })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await auditOf('RACE')).toHaveLength(1);
  });

  it('bad fields are 400s naming the field, and write nothing', async () => {
    const cases: Array<[object, string, string]> = [
      [{ code: 'x', discount_type: 'fixed', discount_value: 1 }, 'code', 'code must be 3 to 40 letters, digits, - or _'],
      [{ code: 'BAD1', discount_type: 'free', discount_value: 1 }, 'discount_type', 'discount_type must be one of percentage, fixed'],
      [{ code: 'BAD2', discount_type: 'percentage', discount_value: 101 }, 'discount_value', 'discount_value must be a whole percent from 1 to 100'],
      [{ code: 'BAD3', discount_type: 'percentage', discount_value: 2.5 }, 'discount_value', 'discount_value must be a whole percent from 1 to 100'],
      [{ code: 'BAD4', discount_type: 'fixed', discount_value: 1.234 }, 'discount_value', 'discount_value must have at most 2 decimal places'],
      [{ code: 'BAD5', discount_type: 'fixed', discount_value: -1 }, 'discount_value', 'discount_value must be a positive amount'],
      [{ code: 'BAD6', discount_type: 'percentage', discount_value: 5, max_discount: 0 }, 'max_discount', 'max_discount must be a positive amount'],
      [{ code: 'BAD7', discount_type: 'fixed', discount_value: 1, valid_until: 'soon' }, 'valid_until', 'valid_until must be a valid ISO 8601 date string'],
      [
        {
          code: 'BAD8',
          discount_type: 'fixed',
          discount_value: 1,
          valid_from: '2030-01-01T00:00:00Z',
          valid_until: '2029-01-01T00:00:00Z',
        },
        'valid_until',
        'valid_until must be after valid_from',
      ],
      [{ code: 'BAD9', discount_type: 'fixed', discount_value: 1, max_uses: -1 }, 'max_uses', 'max_uses must not be less than 0'],
      [{ code: 'BAD10', discount_type: 'fixed', discount_value: 1, reason: 'no' }, 'reason', 'reason must be 3 to 500 characters'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await create(payload);
      expect([payload, res.statusCode, res.json().details?.[0]]).toEqual([payload, 400, { field, message }]);
    }
    expect(await t.db.query(`SELECT code FROM promo_codes WHERE code LIKE 'BAD%' OR code = 'X'`)).toEqual([]);
  });

  it('PATCH switches a code off: estimates and bookings no longer discount; on again, they do', async () => {
    expect((await create({ code: 'PAUSE', discount_type: 'fixed', discount_value: 1 })).statusCode).toBe(201);
    const passenger = await createUser(t);
    const estimate = async () =>
      (
        await t.request({
          method: 'POST',
          url: '/api/v1/rides/estimate',
          token: passenger.accessToken,
          payload: {
            pickup: A,
            dropoff: B,
            ride_type: 'one_way',
            vehicle_category_id: 1,
            passenger_count: 1,
            children: 0,
            promo_code: 'pause',
          },
        })
      ).json().promo;
    expect(await estimate()).toEqual({ code: 'PAUSE', applied: true, reason: null, discount: 1 });

    const off = await patch('pause', { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ code: 'PAUSE', active: false });
    expect(await estimate()).toEqual({ code: 'PAUSE', applied: false, reason: 'Promo code is no longer active', discount: 0 });
    const booked = await bookRide(t, passenger, { promo_code: 'PAUSE' });
    expect(booked.estimate.promo).toMatchObject({ applied: false, reason: 'Promo code is no longer active' });
    expect((await t.db.query(`SELECT used_count FROM promo_codes WHERE code = 'PAUSE'`))[0].used_count).toBe(0);

    expect((await patch('PAUSE', { active: true, max_uses: 5, valid_until: '2035-01-01T00:00:00Z' })).json()).toMatchObject({
      active: true,
      max_uses: 5,
      valid_until: '2035-01-01T00:00:00.000Z',
    });
    expect(await estimate()).toMatchObject({ applied: true });
    expect((await patch('PAUSE', { max_uses: null, valid_until: null })).json()).toMatchObject({ max_uses: null, valid_until: null });

    const entries = await auditOf('PAUSE');
    expect(entries.map((e: { action: string; details: object }) => [e.action, e.details])).toEqual([
      ['promo_codes.update', { before: { max_uses: 5, valid_until: '2035-01-01T00:00:00.000Z' }, after: { max_uses: null, valid_until: null } }],
      [
        'promo_codes.update',
        {
          before: { active: false, max_uses: null, valid_until: null },
          after: { active: true, max_uses: 5, valid_until: '2035-01-01T00:00:00.000Z' },
        },
      ],
      ['promo_codes.update', { before: { active: true }, after: { active: false } }],
      ['promo_codes.create', expect.any(Object)],
    ]);
  });

  it('PATCH: an unknown code is 404, no change is 400, a bad field is 400', async () => {
    const missing = await patch('NOPE', { active: false });
    expect([missing.statusCode, missing.json().message]).toEqual([404, 'Promo code not found']);
    expect((await create({ code: 'STEADY', discount_type: 'fixed', discount_value: 1, valid_from: '2030-01-01T00:00:00Z' })).statusCode).toBe(201);
    const cases: Array<[object, string, string]> = [
      [{}, 'active', 'Give at least one of active, max_uses or valid_until'],
      [{ active: 'no' }, 'active', 'active must be a boolean value'],
      [{ valid_until: '2029-01-01T00:00:00Z' }, 'valid_until', 'valid_until must be after valid_from'],
      [{ max_uses: 1.5 }, 'max_uses', 'max_uses must be an integer number'],
      [{ active: false, reason: undefined }, 'reason', 'reason must be a string'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await patch('STEADY', payload);
      expect([payload, res.statusCode, res.json().details?.[0]]).toEqual([payload, 400, { field, message }]);
    }
    expect(await auditOf('STEADY')).toHaveLength(1);
  });

  it('support reads promo codes but may not write them', async () => {
    const res = await create({ code: 'NOTME', discount_type: 'fixed', discount_value: 1 }, support.accessToken);
    expect([res.statusCode, res.json().message]).toEqual([403, 'Not allowed for your role']);
    expect((await patch('TWICE', { active: false }, support.accessToken)).statusCode).toBe(403);
  });
});
