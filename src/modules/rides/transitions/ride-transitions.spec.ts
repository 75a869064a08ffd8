import { FINAL_STATUSES, LIVE_STATUSES, RIDE_STATUSES, RideStatus } from '../ride-status';
import { driverStep } from './ride-command';
import { DRIVER_STEPS, mayAct, RIDE_TRANSITIONS, RideCommandType, RideParty, RideTransitionRule, refusalOf, sqlAllowing } from './ride-transitions';
import { partyOf } from './ride-transitions.service';

/**
 * The table itself is not copied here: these are the rules its rows must obey (what refusalOf makes
 * of a row, the driver's chain of steps, final statuses) and a few facts of CONTRACT.md section 4
 * that a wrong row would break. The HTTP suites (test/rides/state-machine.e2e-spec.ts) check the
 * whole state machine from outside.
 */
const COMMANDS = Object.keys(RIDE_TRANSITIONS) as RideCommandType[];
const PARTIES: RideParty[] = ['passenger', 'driver', 'system', 'operator', 'other'];
const STATES: (RideStatus | null)[] = [null, ...RIDE_STATUSES];
const rule = (type: RideCommandType): RideTransitionRule => RIDE_TRANSITIONS[type];
const allowed = (type: RideCommandType, party: RideParty, status: RideStatus | null, pastExpiry: boolean) =>
  mayAct(type, party) && refusalOf(type, party, { status, past: { expires_at: pastExpiry, dispatch_at: pastExpiry } }) === null;

describe('ride transition table', () => {
  const cases = COMMANDS.flatMap((type) => PARTIES.flatMap((party) => STATES.map((status) => [type, party, status] as const)));

  it.each(cases)('%s by %s from %s: allowed exactly as its row says, else the row refusal', (type, party, status) => {
    const from = rule(type).from[party];
    // A party the row does not name is told the ride does not exist (404), whatever its status.
    expect(mayAct(type, party)).toBe(from !== undefined);
    if (!from) return;
    for (const past of [false, true]) {
      const timely = rule(type).open ? !past : rule(type).due ? past : true;
      const expected = from.includes(status) && timely ? null : rule(type).refusal;
      expect(refusalOf(type, party, { status, past: { expires_at: past, dispatch_at: past } })).toBe(expected);
    }
  });

  it('refuses an unknown actor as if the ride did not exist', () => {
    for (const type of COMMANDS) expect(mayAct(type, undefined)).toBe(false);
  });

  it('announces every change it allows', () => {
    for (const type of COMMANDS) {
      const allows = Object.values(rule(type).from).some((from) => from.length > 0);
      if (allows) expect(rule(type).event).toBeDefined();
    }
  });

  it('leads nowhere out of a final status, and only the platform moves a ride nobody acted on', () => {
    for (const type of COMMANDS) {
      for (const final of FINAL_STATUSES) {
        for (const party of PARTIES) if (allowed(type, party, final, false)) expect(rule(type).to).toBeUndefined();
      }
      if (rule(type).due) expect(Object.keys(rule(type).from)).toEqual(['system']);
    }
  });

  it('lets the driver step one status at a time from acceptance to completion (CONTRACT 4)', () => {
    let at: RideStatus = 'accepted';
    for (const step of DRIVER_STEPS) {
      expect(allowed(step, 'driver', at, false)).toBe(true);
      expect(STATES.filter((s) => allowed(step, 'driver', s, false))).toEqual([at]);
      expect(mayAct(step, 'passenger')).toBe(false);
      at = rule(step).to!;
    }
    expect(at).toBe('completed');
  });

  it('takes a request only while its time is not up, and expires it only after (CONTRACT 4)', () => {
    expect(allowed('accept', 'passenger', 'requested', false)).toBe(true);
    expect(allowed('accept', 'passenger', 'requested', true)).toBe(false);
    expect(allowed('bid', 'other', 'requested', false)).toBe(true);
    expect(allowed('bid', 'other', 'requested', true)).toBe(false);
    expect(allowed('expire', 'system', 'requested', false)).toBe(false);
    expect(allowed('expire', 'system', 'requested', true)).toBe(true);
    expect(rule('expire').to).toBe('expired');
  });

  it('lets the passenger cancel before the trip starts and the driver only after accepting (CONTRACT 4)', () => {
    expect(STATES.filter((s) => allowed('cancel', 'passenger', s, false))).toEqual(['scheduled', 'requested', 'accepted', 'driver_arrived']);
    expect(STATES.filter((s) => allowed('cancel', 'driver', s, false))).toEqual(['accepted', 'driver_arrived']);
    expect(rule('cancel').withdrawsBids).toBe(true);
  });

  it('lets the passenger raise the offer while the request is open and tip a completed ride, neither changing the status (CONTRACT §11)', () => {
    expect(STATES.filter((s) => allowed('raise_offer', 'passenger', s, false))).toEqual(['requested']);
    expect(allowed('raise_offer', 'passenger', 'requested', true)).toBe(false);
    expect(STATES.filter((s) => allowed('tip', 'passenger', s, false))).toEqual(['completed']);
    for (const type of ['raise_offer', 'tip'] as const) {
      expect(rule(type).to).toBeUndefined();
      expect(Object.keys(rule(type).from)).toEqual(['passenger']);
    }
    expect([rule('raise_offer').event, rule('tip').event]).toEqual(['ride.offer_raised', 'ride.tipped']);
  });

  it('books only a ride that does not exist yet, into a live status', () => {
    expect(STATES.filter((s) => allowed('book', 'passenger', s, false))).toEqual([null]);
    expect(LIVE_STATUSES).toContain(rule('book').to);
  });

  it('books a ride for later into scheduled, which is not live, and only the platform dispatches it when due (CONTRACT 11)', () => {
    expect(STATES.filter((s) => allowed('schedule', 'passenger', s, false))).toEqual([null]);
    expect(rule('schedule').to).toBe('scheduled');
    expect(LIVE_STATUSES).not.toContain('scheduled');
    expect(allowed('dispatch', 'system', 'scheduled', false)).toBe(false);
    expect(STATES.filter((s) => allowed('dispatch', 'system', s, true))).toEqual(['scheduled']);
    expect(rule('dispatch').to).toBe('requested');
    expect(rule('dispatch').event).toBe('ride.dispatched');
    // Nobody bids on, accepts or steps a ride that is not dispatched yet.
    for (const type of ['bid', 'accept', 'arrive', 'expire'] as const) {
      for (const party of PARTIES) expect(allowed(type, party, 'scheduled', false) || allowed(type, party, 'scheduled', true)).toBe(false);
    }
  });

  it('says in SQL what it allows', () => {
    expect(sqlAllowing('bid', 'other', 'r')).toBe(`r.status = 'requested' AND r.expires_at > now()`);
    expect(sqlAllowing('expire', 'system', 'r')).toBe(`r.status = 'requested' AND r.expires_at <= now()`);
    expect(sqlAllowing('no_step', 'driver', 'r')).toBe('false');
    expect(sqlAllowing('dispatch', 'system', 'r')).toBe(`r.status = 'scheduled' AND r.dispatch_at <= now()`);
  });

  it('maps each status of PUT /rides/{id}/status to the one driver step reaching it, else a refusal', () => {
    const reached = Object.fromEntries(RIDE_STATUSES.map((s) => [s, driverStep(s).type]));
    expect(reached).toEqual({
      scheduled: 'no_step',
      requested: 'no_step',
      accepted: 'no_step',
      driver_arrived: 'arrive',
      started: 'start',
      completed: 'complete',
      cancelled: 'no_step',
      expired: 'no_step',
    });
  });
});

describe('partyOf', () => {
  const ride = { passenger_id: 1, driver_id: 2 };
  it('tells the passenger, the assigned driver, the platform and anyone else apart', () => {
    expect(partyOf(ride, { id: 1 })).toBe('passenger');
    expect(partyOf(ride, { id: 2 })).toBe('driver');
    expect(partyOf(ride, 'system')).toBe('system');
    expect(partyOf(ride, { id: 3 })).toBe('other');
    expect(partyOf({ passenger_id: null, driver_id: null }, { id: 1 })).toBe('other');
  });
});
