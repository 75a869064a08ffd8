import type { GeoPoint } from './events/domain-events';

export const EARTH_RADIUS_KM = 6371;

/** Great-circle distance in kilometres (haversine). */
export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The same formula in SQL, over four column or parameter expressions, so that SQL filters and the
 * fare engine agree on what "within N km" means.
 */
export function sqlHaversineKm(lat1: string, lng1: string, lat2: string, lng2: string): string {
  return `(2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
    power(sin(radians(${lat2} - ${lat1}) / 2), 2) +
    cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lng2} - ${lng1}) / 2), 2)))))`;
}

/** A latitude/longitude rectangle, edges included; min ≤ max on both axes (no wrap across 180°). */
export interface GeoBox {
  minLatitude: number;
  minLongitude: number;
  maxLatitude: number;
  maxLongitude: number;
}

export function inBox(box: GeoBox, latitude: number, longitude: number): boolean {
  return latitude >= box.minLatitude && latitude <= box.maxLatitude && longitude >= box.minLongitude && longitude <= box.maxLongitude;
}
