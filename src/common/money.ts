/** Money is integer minor units inside the service and major units with 2 decimals on the wire. */
export function toMajor(minor: number): number {
  return Math.round(minor) / 100;
}

/** Major units from a client (at most 2 decimals) to minor units; undefined when not representable. */
export function toMinor(major: number): number | undefined {
  if (!Number.isFinite(major)) return undefined;
  const minor = Math.round(major * 100);
  if (Math.abs(minor - major * 100) > 1e-6) return undefined;
  return minor;
}

/**
 * `percent` % of an amount in minor units, rounded half up without floating point: the percent may
 * carry up to two decimals (a 12.5 % commission), so it is applied as basis points.
 */
export function percentOf(amountMinor: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((amountMinor * basisPoints + 5000) / 10000);
}
