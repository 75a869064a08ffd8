import { needsPin, newStartPin, pinMatches } from './start-pin';

describe('start PIN rules', () => {
  const at = (iso: string) => new Date(iso);

  it('night is 21:00 up to 06:00 on the clocks of the zone', () => {
    expect(needsPin('night', 'UTC', at('2026-11-27T20:59:59Z'))).toBe(false);
    expect(needsPin('night', 'UTC', at('2026-11-27T21:00:00Z'))).toBe(true);
    expect(needsPin('night', 'UTC', at('2026-11-28T05:59:59Z'))).toBe(true);
    expect(needsPin('night', 'UTC', at('2026-11-28T06:00:00Z'))).toBe(false);
    // 20:30 UTC is 21:30 in Berlin (CET, UTC+1 in November).
    expect(needsPin('night', 'Europe/Berlin', at('2026-11-27T20:30:00Z'))).toBe(true);
    expect(needsPin('night', 'America/New_York', at('2026-11-27T20:30:00Z'))).toBe(false);
  });

  it('always and off ignore the time', () => {
    expect(needsPin('always', 'UTC', at('2026-11-27T12:00:00Z'))).toBe(true);
    expect(needsPin('off', 'UTC', at('2026-11-27T23:00:00Z'))).toBe(false);
  });

  it('a PIN is 4 digits, leading zeros kept', () => {
    for (let i = 0; i < 200; i++) expect(newStartPin()).toMatch(/^[0-9]{4}$/);
  });

  it('matches only the exact PIN', () => {
    expect(pinMatches('0427', '0427')).toBe(true);
    for (const sent of [undefined, '', '427', '04270', '0428', ' 0427']) expect(pinMatches('0427', sent)).toBe(false);
  });
});
