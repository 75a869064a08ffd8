import type { DriverRow, PendingLocation } from './drivers.repository';

export type DriverLocationView = { latitude: number; longitude: number; heading: number | null; speed: number | null; accuracy: number | null };

/** The driver profile of CONTRACT.md 4a (DriverProfileResponseDto describes it): the row's own fields, and the last position. */
export type DriverProfileView = Pick<
  DriverRow,
  | 'user_id'
  | 'status'
  | 'is_online'
  | 'vehicle_category_id'
  | 'vehicle_make'
  | 'vehicle_model'
  | 'vehicle_plate'
  | 'vehicle_color'
  | 'vehicle_year'
  | 'license_number'
  | 'ratings_count'
> & { rating: number | null; last_location: DriverLocationView | null; last_location_at: string | null; payouts_enabled: boolean };

/** The answer to a heartbeat (LocationAcceptedResponseDto describes it). */
export type LocationAcceptedView = DriverLocationView & { recorded_at: string };

export function locationAcceptedToJson(p: PendingLocation): LocationAcceptedView {
  return { latitude: p.latitude, longitude: p.longitude, heading: p.heading, speed: p.speed, accuracy: p.accuracy, recorded_at: p.at.toISOString() };
}

/** The driver profile of CONTRACT.md 4a; `latest` (the live store's heartbeat) wins over the row; `payoutsEnabled` is the payments module's (§12). */
export function driverProfileToJson(row: DriverRow, latest: PendingLocation | undefined, payoutsEnabled: boolean): DriverProfileView {
  const location: DriverLocationView | null = latest
    ? { latitude: latest.latitude, longitude: latest.longitude, heading: latest.heading, speed: latest.speed, accuracy: latest.accuracy }
    : row.last_latitude === null || row.last_longitude === null
      ? null
      : {
          latitude: row.last_latitude,
          longitude: row.last_longitude,
          heading: row.last_heading,
          speed: row.last_speed,
          accuracy: row.last_accuracy,
        };
  const at = latest ? latest.at : row.last_location_at;
  return {
    user_id: row.user_id,
    status: row.status,
    is_online: row.is_online,
    vehicle_category_id: row.vehicle_category_id,
    vehicle_make: row.vehicle_make,
    vehicle_model: row.vehicle_model,
    vehicle_plate: row.vehicle_plate,
    vehicle_color: row.vehicle_color,
    vehicle_year: row.vehicle_year,
    license_number: row.license_number,
    rating: row.rating === null ? null : Number(row.rating),
    ratings_count: row.ratings_count,
    last_location: location,
    last_location_at: at ? new Date(at).toISOString() : null,
    payouts_enabled: payoutsEnabled,
  };
}
