import { LocationThrottle } from './location-throttle';

describe('LocationThrottle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first update at once, then at most one per interval, ending on the latest', () => {
    const throttle = new LocationThrottle(1000);
    const sent: number[] = [];
    const start = Date.now();
    throttle.offer('r', () => sent.push(1), start);
    throttle.offer('r', () => sent.push(2), start + 100);
    throttle.offer('r', () => sent.push(3), start + 200);
    expect(sent).toEqual([1]);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual([1, 3]);
    jest.advanceTimersByTime(5000);
    expect(sent).toEqual([1, 3]);
  });

  it('throttles each ride separately', () => {
    const throttle = new LocationThrottle(1000);
    const sent: string[] = [];
    throttle.offer('a', () => sent.push('a'));
    throttle.offer('b', () => sent.push('b'));
    expect(sent).toEqual(['a', 'b']);
  });

  it('forget drops a waiting update; sweep drops idle rides', () => {
    const throttle = new LocationThrottle(1000);
    const sent: number[] = [];
    const now = Date.now();
    throttle.offer('r', () => sent.push(1), now);
    throttle.offer('r', () => sent.push(2), now + 10);
    throttle.forget('r');
    jest.advanceTimersByTime(2000);
    expect(sent).toEqual([1]);
    throttle.offer('s', () => sent.push(3), now);
    throttle.sweep(60_000, now + 61_000);
    expect(throttle.size).toBe(0);
  });
});
