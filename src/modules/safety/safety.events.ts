import type { RideResponseDto as RideView } from '../rides/dto/ride-response.dto';
import type { SosResponseDto } from './dto/sos.dto';

/** The safety module's events (CONTRACT §14), merged into the typed event map. */
declare module '../../common/events/domain-events' {
  interface DomainEventMap {
    /** An SOS was stored: operators' live sockets get `sos_raised`. */
    'sos.raised': { sos: SosResponseDto; ride: RideView };
    /** A started ride stopped long away from pickup and dropoff: both parties are asked (`ride_check`). */
    'ride.check_requested': { ride_id: string; passenger_id: number | null; driver_id: number | null; reason: 'long_stop' };
  }
}

export {};
