import type { RideStatus } from '../ride-status';
import type { PaymentStatus } from '../read-models/ride-view';
import { RIDE_CLOCKS, RideClock } from './ride-transitions';

/** A ride row locked for a command, with which of the table's clocks have passed. */
export interface LockedRide {
  id: string;
  status: RideStatus;
  passenger_id: number | null;
  driver_id: number | null;
  vehicle_category_id: number;
  payment_method: 'cash' | 'wallet' | 'card';
  fare_minor: number | null;
  /** The stored estimate's total: what an offer is measured against. */
  estimated_fare_minor: number;
  offered_fare_minor: number | null;
  currency: string;
  /** The PIN starting needs (CONTRACT §14), and the wrong tries so far. */
  start_pin: string | null;
  start_pin_failures: number;
  /** Card rides: where the ride's card money stands (null for cash and wallet). */
  payment_status: PaymentStatus | null;
  /** Seconds since acceptance and since the driver arrived, by the database's clock (null before). */
  accepted_seconds: number | null;
  arrived_seconds: number | null;
  past: Partial<Record<RideClock, boolean>>;
}

const LOCKED_FIELDS = [
  'id',
  'status',
  'passenger_id',
  'driver_id',
  'vehicle_category_id',
  'payment_method',
  'fare_minor',
  'estimated_fare_minor',
  'offered_fare_minor',
  'currency',
  'start_pin',
  'start_pin_failures',
  'payment_status',
] as const;
/** LockedRide's fields computed from the row (`a`: the row's alias with its dot), by the database's clock. */
const LOCKED_COMPUTED = {
  accepted_seconds: (a: string) => `extract(epoch FROM now() - ${a}accepted_at)::float8`,
  arrived_seconds: (a: string) => `extract(epoch FROM now() - ${a}arrived_at)::float8`,
  past: (a: string) => `json_build_object(${RIDE_CLOCKS.map((c) => `'${c}', ${a}${c} <= now()`).join(', ')})`,
};

/** LockedRide's columns of the ride row `alias`, each named `${prefix}<field>` (a statement that also reads the view). */
export function lockedColumns(alias = '', prefix = ''): string {
  const a = alias ? `${alias}.` : '';
  const computed = Object.entries(LOCKED_COMPUTED).map(([f, sql]) => `${sql(a)} AS ${prefix}${f}`);
  return [...LOCKED_FIELDS.map((f) => `${a}${f}${prefix ? ` AS ${prefix}${f}` : ''}`), ...computed].join(', ');
}

/** The LockedRide of a row read with lockedColumns(alias, prefix). */
export function lockedOf(row: Record<string, unknown>, prefix: string): LockedRide {
  const entries = [...LOCKED_FIELDS, ...Object.keys(LOCKED_COMPUTED)].map((f) => [f, row[`${prefix}${f}`]]);
  return Object.fromEntries(entries) as LockedRide;
}
