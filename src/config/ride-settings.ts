import { isKnownTimeZone } from '../common/time-zone';
import { ServiceSettings } from './service-settings';
import { Setting } from './settings';

/** AppConfig's ride group (see AppConfig): fares, safety, dispatch and matching, the read caches and the live sockets. */
export class RideSettings extends ServiceSettings {
  @Setting.string('USD', { check: currencyProblem, map: (code) => code.toUpperCase() })
  readonly currency!: string;
  @Setting.number(0, 0, 100)
  readonly platformCommissionPercent!: number;
  /** A completed ride may be rated by each side for this many days (CONTRACT §11). */
  @Setting.int(7, 1, 365)
  readonly ratingWindowDays!: number;
  @Setting.int(10, 1, 24 * 60)
  readonly rideRequestTtlMinutes!: number;
  /** `night` PINs (CONTRACT §14) are for rides accepted from 21:00 to 06:00 here (an IANA zone). */
  @Setting.string('UTC', { check: (zone) => (isKnownTimeZone(zone) ? undefined : 'must be an IANA time zone such as Europe/Berlin') })
  readonly ridePinTimezone!: string;
  /** A started ride's driver staying within 100 m this long, away from pickup and dropoff, asks both parties (§14). */
  @Setting.number(5, 0.001, 24 * 60)
  readonly rideCheckStopMinutes!: number;
  @Setting.int(15, 1, 3600)
  readonly rideExpirySweepSeconds!: number;
  /** How often each instance checks its open-requests index against the database (drift bound). */
  @Setting.int(45, 1, 3600)
  readonly openRequestsReconcileSeconds!: number;
  /** A ride booked for later becomes requested this long before its pickup_at (CONTRACT §11). */
  @Setting.int(15, 0, 24 * 60)
  readonly dispatchLeadMinutes!: number;
  @Setting.int(15, 1, 3600)
  readonly rideDispatchSweepSeconds!: number;
  /** Rides one passenger may hold booked for later (CONTRACT §11: 3). */
  @Setting.int(3, 0, 100)
  readonly scheduledRidesPerPassenger!: number;
  @Setting.number(5, 0.1, 50)
  readonly matchingRadiusKm!: number;
  /** An offered_fare at booking must be at least this percent of the estimate's total. */
  @Setting.number(70, 1, 100)
  readonly minOfferPercent!: number;
  /** The surge multiplier's cap (1 = surge off). */
  @Setting.number(2, 1, 10)
  readonly surgeMaxMultiplier!: number;
  @Setting.number(1.3, 1, 3)
  readonly routingRoadFactor!: number;
  @Setting.number(30, 1, 200)
  readonly routingAverageSpeedKmh!: number;
  @Setting.int(1000, 50, 60_000)
  readonly locationFlushMs!: number;
  /** A driver whose last heartbeat is older than this is not offered new rides. */
  @Setting.int(60, 1, 3600)
  readonly driverLocationMaxAgeSeconds!: number;
  /** Most drivers' latest positions held in memory without Redis (least recently heard from go first). */
  @Setting.int(500_000, 1, 10_000_000)
  readonly livePositionsMaxEntries!: number;
  /** How often each instance reloads the matcher's drivers from the database (lost events, flushed positions). */
  @Setting.int(15, 1, 3600)
  readonly driverMatchingReconcileSeconds!: number;
  /** Ride details cache lifetime (0 = off); local writes and ride events invalidate sooner. */
  @Setting.int(1000, 0, 60_000)
  readonly rideCacheMs!: number;
  /** Most rides the ride details cache holds (least recently used go first). */
  @Setting.int(20_000, 1, 10_000_000)
  readonly rideCacheMaxEntries!: number;
  /** How long the location heartbeat may trust its cached "which ride is this driver on" (ride events update it sooner; a bus reconnect drops it). */
  @Setting.int(600_000, 0, 3_600_000)
  readonly driverRideCacheMs!: number;
  /** Most drivers that cache holds (least recently used go first). */
  @Setting.int(200_000, 1, 10_000_000)
  readonly driverRideCacheMaxEntries!: number;
  /**
   * How long nearby may trust a cached driver record (status, category); driver events invalidate
   * sooner, and the whole cache is dropped when the event bus reconnects. Each expiry is a database
   * read: 30 s made 333 reads a second from 10,000 drivers polling nearby.
   */
  @Setting.int(600_000, 0, 3_600_000)
  readonly driverCacheMs!: number;
  /** Most driver records that cache holds (least recently used go first). */
  @Setting.int(100_000, 1, 10_000_000)
  readonly driverCacheMaxEntries!: number;
  /** How long the vehicle categories are served from memory; `vehicle_categories.changed` (categories:reload) invalidates sooner. */
  @Setting.int(30_000, 0, 3_600_000)
  readonly vehicleCategoryCacheMs!: number;
  /** Most verified access tokens remembered (least recently used go first); each lives at most its own lifetime. */
  @Setting.int(200_000, 1, 10_000_000)
  readonly accessTokenCacheMaxEntries!: number;

  @Setting.int(20, 1, 10_000)
  readonly wsMaxMessagesPerSecond!: number;
  @Setting.int(1024 * 1024, 1024, 256 * 1024 * 1024)
  readonly wsMaxBufferedBytes!: number;
  @Setting.int(16 * 1024, 256, 16 * 1024 * 1024)
  readonly wsMaxPayloadBytes!: number;
  /** Live sockets one user may hold on one instance; one more closes the oldest (4429). */
  @Setting.int(5, 1, 1000)
  readonly wsMaxSocketsPerUser!: number;
  @Setting.int(30_000, 100, 600_000)
  readonly wsPingIntervalMs!: number;
  @Setting.int(1000, 0, 60_000)
  readonly wsLocationThrottleMs!: number;
}

function currencyProblem(code: string): string | undefined {
  return /^[A-Za-z]{3}$/.test(code) ? undefined : 'must be an ISO 4217 code such as USD';
}
