import type { AppConfig } from '../../../../config/app-config';
import type { RideView } from '../../read-models/ride-view';
import type { LockedRide } from '../ride-writes.repository';
import { DispatchRideHandler } from './dispatch-ride.handler';

describe('DispatchRideHandler', () => {
  const handler = new DispatchRideHandler({ rideRequestTtlMinutes: 12 } as AppConfig);

  it("starts the request's time to live at dispatch", () => {
    expect(handler.columns()).toEqual({ expires_in_minutes: 12 });
  });

  it('announces ride.dispatched with what ride.requested carries, so it is matched the same way', () => {
    const ride = { id: 'r1', passenger_id: 7, vehicle_category_id: 3 } as LockedRide;
    const view = { id: 'r1', pickup: { latitude: 1, longitude: 2, address: 'x' } } as RideView;
    expect(handler.event(ride, view)).toEqual({
      name: 'ride.dispatched',
      payload: { ride_id: 'r1', passenger_id: 7, vehicle_category_id: 3, pickup: { latitude: 1, longitude: 2 }, ride: view },
    });
  });
});
