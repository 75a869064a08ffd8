/** A pre-filled request body with its one-line summary in Swagger UI. */
export type Example = { summary: string; value: Record<string, unknown> };

const PICKUP = { address: 'Alexanderplatz 1, Berlin', latitude: 52.5219, longitude: 13.4132 };
const DROPOFF = { address: 'Potsdamer Platz 1, Berlin', latitude: 52.5096, longitude: 13.3759 };

/** One body per ride type, its times a few hours after the document is built so that they are valid when tried. */
export function rideRequestExamples(now: Date, book: boolean): Record<string, Example> {
  const at = (hours: number): string => new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + hours * 3_600_000).toISOString();
  const common = { vehicle_category_id: 1, passenger_count: 1, children: 0, ...(book ? { payment_method: 'cash' } : {}) };
  return {
    one_way: { summary: 'One way', value: { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', ...common } },
    round_trip: {
      summary: 'Round trip (the return leg ends at return_location)',
      value: { pickup: PICKUP, dropoff: DROPOFF, return_location: PICKUP, return_scheduled_at: at(4), ride_type: 'round_trip', ...common },
    },
    per_hour: {
      summary: 'Per hour (duration_minutes and end_scheduled_at)',
      value: { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'per_hour', duration_minutes: 120, end_scheduled_at: at(3), ...common },
    },
    delivery: {
      summary: 'Delivery',
      value: { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'delivery', ...common, passenger_count: 0 },
    },
    // Booking only: a ride for later starts `scheduled` and is dispatched DISPATCH_LEAD_MINUTES before pickup_at.
    ...(book
      ? {
          ride_later: {
            summary: 'Ride later (pickup_at: 15 minutes to 7 days ahead)',
            value: { pickup: PICKUP, dropoff: DROPOFF, ride_type: 'one_way', ...common, pickup_at: at(2) },
          },
        }
      : {}),
  };
}
