import { Injectable } from '@nestjs/common';
import { AuditService, type AuditedBy } from '../audit/audit.service';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { EventBus } from '../../common/events/event-bus';
import { DriverLocationsService } from '../drivers/driver-locations.service';
import type { RideResponseDto as RideView } from '../rides/dto/ride-response.dto';
import { RideError } from '../rides/rides.errors';
import { RidesService } from '../rides/rides.service';
import { EmergencyContactsService } from '../users/emergency-contacts.service';
import type { AdminSosPageResponseDto, AdminSosQueryDto, AdminSosResponseDto, SosRaiser, SosResponseDto } from './dto/sos.dto';
import { SafetyError } from './safety.errors';
import { SosAlertsRepository, SosRow, SosTextRow } from './sos-alerts.repository';
import { SosTextsSender } from './sos-texts.sender';

/** The statuses in which either party may raise an SOS (CONTRACT §14). */
const SOS_STATUSES: ReadonlyArray<RideView['status']> = ['accepted', 'driver_arrived', 'started'];

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function sosView(row: SosRow): SosResponseDto {
  return {
    id: Number(row.id),
    ride_id: row.ride_id,
    raised_by: row.raised_by,
    status: row.status,
    latitude: row.latitude,
    longitude: row.longitude,
    created_at: iso(row.created_at)!,
  };
}

function adminView(row: SosRow, texts: SosTextRow[]): AdminSosResponseDto {
  return {
    ...sosView(row),
    raised_by_user_id: row.raised_by_user_id,
    source: row.source,
    resolved_at: iso(row.resolved_at),
    resolved_by: row.resolved_by,
    resolution_reason: row.resolution_reason,
    texts: texts.map((t) => ({
      name: t.contact_name,
      phone: t.phone,
      status: t.status,
      attempts: t.attempts,
      last_error: t.last_error,
      sent_at: iso(t.sent_at),
    })),
  };
}

/**
 * SOS alerts (CONTRACT §14): raised by the passenger or the assigned driver of a live ride, one
 * open per ride. The alert and its texts are stored first; then operators' live sockets are told
 * (`sos_raised`) and the texts go out (SosTextsSender). Operators list and resolve alerts, each
 * resolution audited in its own transaction.
 */
@Injectable()
export class SosService {
  constructor(
    private readonly alerts: SosAlertsRepository,
    private readonly rides: RidesService,
    private readonly contacts: EmergencyContactsService,
    private readonly locations: DriverLocationsService,
    private readonly texts: SosTextsSender,
    private readonly audit: AuditService,
    private readonly events: EventBus,
  ) {}

  /** The ride as no passenger sees it and how the user stands to it: 404 for anyone but its passenger and driver. */
  async partyTo(rideId: string, user: AuthenticatedUser): Promise<{ ride: RideView; party: SosRaiser }> {
    const ride = await this.rides.findRideView(rideId);
    if (ride?.passenger?.id === user.id) return { ride, party: 'passenger' };
    if (ride?.driver !== null && ride?.driver !== undefined && ride.driver.id === user.id) return { ride, party: 'driver' };
    throw new RideError('RIDE_NOT_FOUND');
  }

  /** POST /rides/{id}/sos (and a ride check answered "not OK"): `created` false when the ride's open alert is returned. */
  async raise(
    rideId: string,
    user: AuthenticatedUser,
    at: { latitude?: number; longitude?: number },
    source: 'button' | 'ride_check' = 'button',
  ): Promise<{ sos: SosResponseDto; created: boolean }> {
    const { ride, party } = await this.partyTo(rideId, user);
    if (!SOS_STATUSES.includes(ride.status)) throw new SafetyError('SOS_RIDE_NOT_LIVE');
    const open = await this.alerts.findOpenOfRide(ride.id);
    if (open) return { sos: sosView(open), created: false };
    const position = await this.positionOf(ride, at);
    const contacts = (await this.contacts.findForAlert(user.id))?.contacts ?? [];
    const row = await this.alerts.insertWithTexts({ rideId: ride.id, raisedBy: party, userId: user.id, source, ...position, contacts });
    if (!row) {
      // Raised by the other party at the same moment: theirs is the ride's open alert.
      const theirs = await this.alerts.findOpenOfRide(ride.id);
      if (theirs) return { sos: sosView(theirs), created: false };
      return this.raise(rideId, user, at, source);
    }
    const sos = sosView(row);
    this.events.publish('sos.raised', { sos, ride });
    void this.texts.send(row.id);
    return { sos, created: true };
  }

  /** Where the alert was raised: as sent, else the driver's last known position, else unknown. */
  private async positionOf(ride: RideView, at: { latitude?: number; longitude?: number }): Promise<{ latitude: number | null; longitude: number | null }> {
    if (at.latitude !== undefined && at.longitude !== undefined) return { latitude: at.latitude, longitude: at.longitude };
    const last = ride.driver ? await this.locations.latestOf(ride.driver.id) : undefined;
    return last ? { latitude: last.latitude, longitude: last.longitude } : { latitude: null, longitude: null };
  }

  async list(query: AdminSosQueryDto): Promise<AdminSosPageResponseDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { rows, total } = await this.alerts.findPage(query.status, (page - 1) * limit, limit);
    const texts = await this.alerts.findTextsOf(rows.map((r) => r.id));
    return {
      items: rows.map((row) =>
        adminView(
          row,
          texts.filter((t) => t.sos_id === row.id),
        ),
      ),
      page,
      limit,
      total,
    };
  }

  /** POST /admin/sos/{id}/resolve: once; the audit entry in the same transaction. */
  async resolve(id: number, by: AuditedBy & { actorId: number }): Promise<AdminSosResponseDto> {
    const reason = by.reason.trim();
    const row = await this.alerts.runInTransaction(async (tx) => {
      const current = await this.alerts.lock(id, tx);
      if (!current) throw new SafetyError('SOS_NOT_FOUND');
      if (current.status !== 'open') throw new SafetyError('SOS_ALREADY_RESOLVED');
      const resolved = await this.alerts.resolve(id, by.actorId, reason, tx);
      await this.audit.record({ ...by, action: 'sos.resolve', targetType: 'sos', targetId: id, details: { ride_id: current.ride_id } }, tx);
      return resolved;
    });
    return adminView(row, await this.alerts.findTextsOf([row.id]));
  }
}
