/**
 * The ride statuses (CONTRACT.md section 4), stated once: the type, the validation lists, the SQL
 * filters, the entity's check and partial indexes, and the realtime routing all come from here.
 */
export const RIDE_STATUSES = ['scheduled', 'requested', 'accepted', 'driver_arrived', 'started', 'completed', 'cancelled', 'expired'] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];

/**
 * Live: the ride is under way and holds its passenger (and, once accepted, its driver). A ride booked
 * for later (`scheduled`) is not live until it is dispatched (CONTRACT §11: it does not count as the
 * passenger's live ride).
 */
export const LIVE_STATUSES = ['requested', 'accepted', 'driver_arrived', 'started'] as const satisfies readonly RideStatus[];
/** Not final: live, or waiting for its pickup time. Ride codes are unique among these (CONTRACT §1). */
export const NON_FINAL_STATUSES = ['scheduled', ...LIVE_STATUSES] as const satisfies readonly RideStatus[];
/** A driver is assigned and the ride is not over. */
export const ASSIGNED_STATUSES = ['accepted', 'driver_arrived', 'started'] as const satisfies readonly RideStatus[];
export const FINAL_STATUSES = ['completed', 'cancelled', 'expired'] as const satisfies readonly RideStatus[];

/** A status list as an SQL list literal, `('a', 'b')` (the values are the constants above, never input). */
export function sqlStatusList(statuses: readonly RideStatus[]): string {
  return `(${statuses.map((s) => `'${s}'`).join(', ')})`;
}

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}
