import { DomainError } from '../../../common/errors/domain.error';
import { RIDE_STATUSES, RideStatus } from '../ride-status';
import { chatSideOf, ChatAct, messageText, MESSAGE_LENGTH_REFUSAL } from './ride-chat.rules';

const PASSENGER = 1;
const DRIVER = 2;
const ride = (status: RideStatus) => ({ passenger_id: PASSENGER, driver_id: DRIVER, status });

/** The code a call refused with, or the side it allowed. */
function outcome(act: ChatAct, status: RideStatus, userId: number): string {
  try {
    return chatSideOf(act, ride(status), { id: userId });
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}

describe('RIDE_CHAT_RULES', () => {
  it('sending: the passenger and the driver while accepted, driver_arrived or started; 409 in any other status', () => {
    const open = new Set<RideStatus>(['accepted', 'driver_arrived', 'started']);
    for (const status of RIDE_STATUSES) {
      expect([status, outcome('send', status, PASSENGER)]).toEqual([status, open.has(status) ? 'passenger' : 'CHAT_CLOSED']);
      expect([status, outcome('send', status, DRIVER)]).toEqual([status, open.has(status) ? 'driver' : 'CHAT_CLOSED']);
    }
  });

  it('reading: both parties in every status', () => {
    for (const status of RIDE_STATUSES) {
      expect([outcome('read', status, PASSENGER), outcome('read', status, DRIVER)]).toEqual(['passenger', 'driver']);
    }
  });

  it('anyone else, or a ride that does not exist: not found', () => {
    for (const act of ['send', 'read'] as const) {
      for (const status of RIDE_STATUSES) expect(outcome(act, status, 3)).toBe('RIDE_NOT_FOUND');
      expect(() => chatSideOf(act, undefined, { id: PASSENGER })).toThrow(expect.objectContaining({ code: 'RIDE_NOT_FOUND' }));
    }
    // A ride without a driver yet, or whose passenger's account is gone (null), matches nobody by null.
    expect(() => chatSideOf('read', { passenger_id: null, driver_id: null, status: 'requested' }, { id: 0 })).toThrow(
      expect.objectContaining({ code: 'RIDE_NOT_FOUND' }),
    );
  });
});

describe('messageText', () => {
  it('trims and keeps inner whitespace', () => {
    expect(messageText('  hello\n  there \t')).toBe('hello\n  there');
  });

  it('counts characters (code points) after trimming: 1 to 1000', () => {
    expect(messageText(`  ${'a'.repeat(1000)}  `)).toHaveLength(1000);
    expect(messageText('🚕'.repeat(1000))).toHaveLength(2000);
    expect(messageText('x')).toBe('x');
    for (const text of ['', '   ', '\n', 'a'.repeat(1001), '🚕'.repeat(1001), `${'🚕'.repeat(999)}ab`]) {
      expect(() => messageText(text)).toThrow(MESSAGE_LENGTH_REFUSAL);
    }
  });
});
