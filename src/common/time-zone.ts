/** Whether Intl knows the IANA time zone name (a setting's check). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The hour (0–23) on the clocks of `timeZone` at `at`. */
export function hourIn(timeZone: string, at: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
}
