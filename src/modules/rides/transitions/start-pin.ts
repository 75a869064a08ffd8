import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { hourIn } from '../../../common/time-zone';
import type { RidePinSetting } from '../ride-pin-settings.port';

/** Wrong tries after which the ride's PIN is refused outright (429), right or not. */
export const MAX_WRONG_PINS = 5;

/** Night rides: accepted from 21:00 up to 06:00 in RIDE_PIN_TIMEZONE. */
const NIGHT_FROM_HOUR = 21;
const NIGHT_UNTIL_HOUR = 6;

/** Whether a ride accepted at `at` under the passenger's `setting` carries a start PIN. */
export function needsPin(setting: RidePinSetting, timeZone: string, at: Date): boolean {
  if (setting === 'always') return true;
  if (setting === 'off') return false;
  const hour = hourIn(timeZone, at);
  return hour >= NIGHT_FROM_HOUR || hour < NIGHT_UNTIL_HOUR;
}

/** Four random digits from the CSPRNG, leading zeros kept. */
export function newStartPin(): string {
  return randomInt(0, 10_000).toString().padStart(4, '0');
}

/** Compared in constant time whatever was sent: both sides are hashed to one length first. */
export function pinMatches(expected: string, sent: string | undefined): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const same = timingSafeEqual(digest(expected), digest(sent ?? ''));
  return same && sent !== undefined;
}
