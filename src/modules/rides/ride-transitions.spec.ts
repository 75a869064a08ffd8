import { RIDE_STATUSES, RideStatus } from './ride-status';
import { DRIVER_STEPS, driverStepTo, mayAct, RIDE_TRANSITIONS, RideCommandType, RideParty, refusalOf } from './ride-transitions';
import { partyOf } from './ride-transitions.service';

/**
 * The ride state machine written out independently of the table (CONTRACT.md section 4): for each
 * command, who may apply it, from which statuses, where it leads, what the refusal is.
 */
const EXPECTED: Record<RideCommandType, { to: RideStatus; allowed: Partial<Record<RideParty, (RideStatus | null)[]>>; refusal: string }> = {
  book: { to: 'requested', allowed: { passenger: [null] }, refusal: 'ACTIVE_RIDE_EXISTS' },
  accept: { to: 'accepted', allowed: { passenger: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED' },
  arrive: { to: 'driver_arrived', allowed: { driver: ['accepted'] }, refusal: 'INVALID_STATUS_TRANSITION' },
  start: { to: 'started', allowed: { driver: ['driver_arrived'] }, refusal: 'INVALID_STATUS_TRANSITION' },
  complete: { to: 'completed', allowed: { driver: ['started'] }, refusal: 'INVALID_STATUS_TRANSITION' },
  cancel: {
    to: 'cancelled',
    allowed: { passenger: ['requested', 'accepted', 'driver_arrived'], driver: ['accepted', 'driver_arrived'] },
    refusal: 'RIDE_NOT_CANCELLABLE',
  },
  expire: { to: 'expired', allowed: { system: ['requested'] }, refusal: 'RIDE_NOT_REQUESTED' },
};

const EVENTS: Record<RideCommandType, string> = {
  book: 'ride.requested',
  accept: 'ride.accepted',
  arrive: 'ride.status_changed',
  start: 'ride.status_changed',
  complete: 'ride.status_changed',
  cancel: 'ride.cancelled',
  expire: 'ride.expired',
};

const COMMANDS = Object.keys(EXPECTED) as RideCommandType[];
const PARTIES: RideParty[] = ['passenger', 'driver', 'system'];
const STATES: (RideStatus | null)[] = [null, ...RIDE_STATUSES];

describe('ride transition table', () => {
  it('has exactly the seven commands', () => {
    expect(Object.keys(RIDE_TRANSITIONS).sort()).toEqual([...COMMANDS].sort());
  });

  it.each(COMMANDS)('%s leads to its status and announces its event', (type) => {
    expect(RIDE_TRANSITIONS[type].to).toBe(EXPECTED[type].to);
    expect(RIDE_TRANSITIONS[type].event).toBe(EVENTS[type]);
  });

  const cases = COMMANDS.flatMap((type) => PARTIES.flatMap((party) => STATES.map((status) => [type, party, status] as const)));

  it.each(cases)('%s by %s from %s', (type, party, status) => {
    const allowedFrom = EXPECTED[type].allowed[party];
    // A party the command is not for is told the ride does not exist (404), whatever its status.
    expect(mayAct(type, party)).toBe(allowedFrom !== undefined);
    if (!allowedFrom) return;
    // Time not up: only `expire` needs it to be up.
    const fresh = refusalOf(type, party, { status, pastExpiry: false });
    const due = refusalOf(type, party, { status, pastExpiry: true });
    const allowed = allowedFrom.includes(status);
    if (type === 'expire') {
      expect(fresh).toBe(EXPECTED[type].refusal);
      expect(due).toBe(allowed ? null : EXPECTED[type].refusal);
    } else if (type === 'accept') {
      // Nobody takes a ride whose request time is up, even before the sweeper expired it.
      expect(fresh).toBe(allowed ? null : EXPECTED[type].refusal);
      expect(due).toBe(EXPECTED[type].refusal);
    } else {
      // Cancelling (and the steps, which never see a requested ride) ignore the request time.
      expect(fresh).toBe(allowed ? null : EXPECTED[type].refusal);
      expect(due).toBe(fresh);
    }
  });

  it('refuses an unknown actor as if the ride did not exist', () => {
    for (const type of COMMANDS) expect(mayAct(type, undefined)).toBe(false);
  });

  it('maps each status of PUT /rides/{id}/status to the one driver step reaching it', () => {
    expect(DRIVER_STEPS).toEqual(['arrive', 'start', 'complete']);
    const reached = Object.fromEntries(RIDE_STATUSES.map((s) => [s, driverStepTo(s) ?? null]));
    expect(reached).toEqual({
      requested: null,
      accepted: null,
      driver_arrived: 'arrive',
      started: 'start',
      completed: 'complete',
      cancelled: null,
      expired: null,
    });
  });
});

describe('partyOf', () => {
  const ride = { passenger_id: 1, driver_id: 2 };
  it('tells the passenger, the assigned driver, the platform and strangers apart', () => {
    expect(partyOf(ride, { id: 1 })).toBe('passenger');
    expect(partyOf(ride, { id: 2 })).toBe('driver');
    expect(partyOf(ride, 'system')).toBe('system');
    expect(partyOf(ride, { id: 3 })).toBeUndefined();
    expect(partyOf({ passenger_id: null, driver_id: null }, { id: 1 })).toBeUndefined();
  });
});
