import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RIDE_MESSAGE_VIEW_COLUMNS, RIDE_MESSAGE_VIEW_FROM, RIDE_MESSAGE_VIEW_ORDER, RideMessageViewRow, SenderRole } from './ride-message-view';

export interface NewRideMessage {
  id: string;
  rideId: string;
  senderId: number;
  senderRole: SenderRole;
  text: string;
}

/**
 * The insert of a message as the `act` of RideTransitionsService.actOnRide: from the locked ride
 * `l`, as its sender's party, only where the chat rules allow; returns the message's view columns.
 */
export function insertMessageWhere(message: Omit<NewRideMessage, 'rideId' | 'senderRole'>) {
  return (allowed: string, param: (value: unknown) => string): string =>
    `act AS (INSERT INTO ride_messages AS m (id, ride_id, sender_id, sender_role, text)
     SELECT ${param(message.id)}::uuid, l.id, ${param(message.senderId)}::int, l.party, ${param(message.text)}::text FROM l WHERE ${allowed}
     RETURNING ${RIDE_MESSAGE_VIEW_COLUMNS})`;
}

/** The ride_messages table: reads by ride (the insert is insertMessageWhere, under the ride's lock). */
@Injectable()
export class RideMessagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page of the ride's messages, oldest first, and how many it has in all. */
  async listForRide(rideId: string, offset: number, limit: number, manager?: EntityManager): Promise<{ rows: RideMessageViewRow[]; total: number }> {
    const m = manager ?? this.dataSource.manager;
    const [rows, count] = await Promise.all([
      m.query(`SELECT ${RIDE_MESSAGE_VIEW_COLUMNS} ${RIDE_MESSAGE_VIEW_FROM} WHERE m.ride_id = $1 ${RIDE_MESSAGE_VIEW_ORDER} OFFSET $2 LIMIT $3`, [
        rideId,
        offset,
        limit,
      ]) as Promise<RideMessageViewRow[]>,
      m.query(`SELECT count(*)::int AS total FROM ride_messages WHERE ride_id = $1`, [rideId]) as Promise<Array<{ total: number }>>,
    ]);
    return { rows, total: count[0]?.total ?? 0 };
  }
}
