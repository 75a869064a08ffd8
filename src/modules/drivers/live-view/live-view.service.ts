import { Injectable } from '@nestjs/common';
import { CommonError } from '../../../common/errors/common.errors';
import type { GeoBox } from '../../../common/geo';
import { RidesService } from '../../rides/rides.service';
import { DriverMatchingService } from '../matching/driver-matching.service';
import type { LiveDriverStatus, LiveViewQueryDto, LiveViewResponseDto } from './dto/live-view.dto';

/** The most of each kind one answer carries: a map shows no more, and the answer stays small. */
export const LIVE_VIEW_LIMIT = 2000;

/**
 * The operators' live map (CONTRACT §13), from this instance's memory, never a query: the drivers
 * from the matcher's picture (every instance's heartbeats, availability and assignments), the open
 * requests from the rides module's open-requests index.
 */
@Injectable()
export class LiveViewService {
  constructor(
    private readonly matching: DriverMatchingService,
    private readonly rides: RidesService,
  ) {}

  view(query: LiveViewQueryDto): LiveViewResponseDto {
    const box: GeoBox = {
      minLatitude: query.min_latitude ?? -90,
      minLongitude: query.min_longitude ?? -180,
      maxLatitude: query.max_latitude ?? 90,
      maxLongitude: query.max_longitude ?? 180,
    };
    if (box.maxLatitude < box.minLatitude) throw CommonError.validation('max_latitude', 'max_latitude must not be less than min_latitude');
    if (box.maxLongitude < box.minLongitude) throw CommonError.validation('max_longitude', 'max_longitude must not be less than min_longitude');
    const drivers = this.matching.liveIn(box, LIVE_VIEW_LIMIT).map((d) => ({
      id: d.driverId,
      latitude: d.latitude,
      longitude: d.longitude,
      status: (d.rideId !== undefined ? 'on_ride' : d.availability?.online && d.availability.approved ? 'available' : 'offline') as LiveDriverStatus,
      ride_id: d.rideId ?? null,
      at: new Date(d.atMs).toISOString(),
    }));
    return { drivers, open_requests: this.rides.openRequestsIn(box, LIVE_VIEW_LIMIT) };
  }
}
