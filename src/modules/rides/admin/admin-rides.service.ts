import { Injectable } from '@nestjs/common';
import { AuditService, type AuditedBy } from '../../audit/audit.service';
import { iso, rideToJson, type RideView, rideViewFor } from '../read-models/ride-view';
import { RidesRepository } from '../read-models/rides.repository';
import { RideError } from '../rides.errors';
import { isUuid } from '../rides.service';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { AdminRidesRepository } from './admin-rides.repository';
import type { AdminRidePageResponseDto, AdminRidesQueryDto, RideHistoryEventDto } from './dto/admin-rides.dto';

export type AdminRideView = RideView & { events: RideHistoryEventDto[] };

/** What operators do with rides (CONTRACT §13): read any of them with its history, cancel one. */
@Injectable()
export class AdminRidesService {
  constructor(
    private readonly rides: AdminRidesRepository,
    private readonly views: RidesRepository,
    private readonly transitions: RideTransitionsService,
    private readonly audit: AuditService,
  ) {}

  async list(query: AdminRidesQueryDto): Promise<AdminRidePageResponseDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const filter = {
      status: query.status,
      paymentStatus: query.payment_status,
      passengerId: query.passenger_id,
      driverId: query.driver_id,
    };
    const { rows, total } = await this.rides.findPage(filter, (page - 1) * limit, limit);
    return { items: rows.map(rideToJson), page, limit, total };
  }

  async get(rideId: string): Promise<AdminRideView> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const id = rideId.toLowerCase();
    const [row, events] = await Promise.all([this.views.findView(id), this.rides.findEvents(id)]);
    if (!row) throw new RideError('RIDE_NOT_FOUND');
    return {
      // Operators are nobody's passenger: no start PIN.
      ...rideViewFor(rideToJson(row), null),
      events: events.map((e) => ({
        type: e.to_status as RideHistoryEventDto['type'],
        actor: e.actor_role,
        actor_id: e.actor_user_id,
        reason: e.reason,
        at: iso(e.created_at),
      })),
    };
  }

  /**
   * Any ride that is not over, through the transition table's `cancel` row (party `operator`): the
   * usual events, bids withdrawn, no fee; the audit entry is written in the command's transaction.
   */
  cancel(rideId: string, by: AuditedBy & { actorId: number }): Promise<RideView> {
    const reason = by.reason.trim();
    return this.transitions.apply(
      rideId,
      { type: 'cancel', reason },
      { id: by.actorId, operator: true },
      {
        after: (tx, ride) =>
          this.audit.record(
            {
              ...by,
              action: 'rides.cancel',
              targetType: 'ride',
              targetId: ride.id,
              details: { passenger_id: ride.passenger?.id ?? null, driver_id: ride.driver?.id ?? null },
            },
            tx,
          ),
      },
    );
  }
}
