import { serialize, Serialized } from './serialized';

interface Ride {
  id: string;
  fare: number;
}
interface Bid {
  id: string;
  amount: string;
}

describe('Serialized<T>', () => {
  it('is the bytes JSON.stringify writes', () => {
    const ride: Ride = { id: 'r1', fare: 12.5 };
    expect(serialize(ride)).toBe(JSON.stringify(ride));
  });

  it('carries its shape for the compiler (checked by tsc: each @ts-expect-error must be an error)', () => {
    const ride = serialize<Ride>({ id: 'r1', fare: 1 });
    const asRide: Serialized<Ride> = ride;
    // @ts-expect-error a serialised ride is not a serialised bid
    const asBid: Serialized<Bid> = ride;
    // @ts-expect-error a plain string has no shape: only serialize() makes one
    const untyped: Serialized<Ride> = '{"id":"r1","fare":1}';
    // @ts-expect-error the value serialised must be a T
    serialize<Ride>({ id: 'r1', fare: '1' });
    expect([asRide, asBid, untyped]).toHaveLength(3);
  });
});
