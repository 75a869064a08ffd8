import { col, group, nullable, readModel, RowOf, sqlAs, ViewOfGroup } from '../../../common/database/read-model';
import { sqlHaversineKm } from '../../../common/geo';
import { dtoOf } from '../../../common/http/read-model-openapi';
import { driverPublic } from '../read-models/ride-view';

/** The distance from the driver's last known position to the pickup, null without a position. */
const DRIVER_TO_PICKUP_KM = `CASE WHEN d.last_latitude IS NULL THEN NULL
       ELSE ${sqlHaversineKm('d.last_latitude', 'd.last_longitude', 'r.pickup_latitude', 'r.pickup_longitude')} END`;

/**
 * A bid with its driver's public profile, vehicle, rating and distance to the pickup (from the
 * driver's last known position). Use as `SELECT ${BID_VIEW_COLUMNS} ${BID_VIEW_FROM} WHERE ...`.
 */
/** What the view reads beside the bid `b` and its ride `r`: for a statement whose `b` and `r` are CTEs. */
export const BID_VIEW_JOINS = `
  JOIN users u ON u.id = b.driver_id
  LEFT JOIN drivers d ON d.user_id = b.driver_id`;

export const BID_VIEW_FROM = `
  FROM bids b
  JOIN rides r ON r.id = b.ride_id${BID_VIEW_JOINS}`;

/** Cheapest first; equal amounts by who bid first. */
export const BID_VIEW_ORDER = `ORDER BY b.amount_minor ASC, b.created_at ASC, b.id ASC`;

export const BID_STATUSES = ['pending', 'accepted', 'rejected', 'withdrawn'] as const;
export type BidStatus = (typeof BID_STATUSES)[number];

/** The Bid object of CONTRACT.md 4a, declared once (see RIDE in ride-view.ts for what derives from it). */
export const BID = readModel(
  group('BidResponseDto', {
    id: col.uuid('b.id'),
    ride_id: col.uuid('b.ride_id'),
    driver: driverPublic({ id: 'b.driver_id', users: 'u', drivers: 'd' }),
    amount: col.money('b.amount_minor', { example: 15.5 }),
    currency: col.trimmed('r.currency', { example: 'USD' }),
    eta_minutes: col.number('b.eta_minutes', { example: 4 }),
    distance_km: nullable(col.hundredths(sqlAs(DRIVER_TO_PICKUP_KM, 'distance_km')), {
      example: 1.2,
      description: "From the driver's last location to the pickup",
    }),
    status: col.oneOf(BID_STATUSES)('b.status'),
    created_at: col.time('b.created_at'),
    updated_at: col.time('b.updated_at'),
  }),
);

export const BID_VIEW_COLUMNS = BID.columns;
export type BidViewRow = RowOf<typeof BID.root>;
/** The Bid object as the endpoints and bid.submitted carry it. */
export type BidView = ViewOfGroup<typeof BID.root>;
export const bidToJson = BID.toJson;
export const BidResponseDto = dtoOf(BID.root);
export type BidResponseDto = BidView;
