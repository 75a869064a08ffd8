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

/** A PIN's SHA-256 (of its UTF-8): what comparisons compare, so that no comparison runs over the PIN itself. */
export function pinDigest(pin: string): Buffer {
  return createHash('sha256').update(pin).digest();
}

/** Compared in constant time whatever was sent: both sides are hashed to one length first. */
export function pinMatches(expected: string, sent: string | undefined): boolean {
  const same = timingSafeEqual(pinDigest(expected), pinDigest(sent ?? ''));
  return same && sent !== undefined;
}

/**
 * The steady start's check in SQL over the locked ride `l`: no PIN, or tries left and the digest of
 * the sent PIN (`digestParam`, pinDigest's; null when none was sent) equal to the stored PIN's.
 * PostgreSQL's bytea equality is not constant-time, but it compares digests: how long a prefix
 * matched says nothing usable about the PIN (docs/decisions.md). A wrong PIN fails this and takes
 * the counting path, which compares with pinMatches.
 */
export function sqlPinAllows(digestParam: string, maxWrongParam: string): string {
  return `l.start_pin IS NULL OR (l.start_pin_failures < ${maxWrongParam}::int AND sha256(convert_to(l.start_pin, 'UTF8')) = ${digestParam}::bytea)`;
}
