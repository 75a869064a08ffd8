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
