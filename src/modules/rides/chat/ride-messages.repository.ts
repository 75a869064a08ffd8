import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../../common/database/sql-results';
import { RIDE_MESSAGE_VIEW_COLUMNS, RIDE_MESSAGE_VIEW_FROM, RIDE_MESSAGE_VIEW_ORDER, RideMessageViewRow, SenderRole } from './ride-message-view';

export interface NewRideMessage {
  id: string;
  rideId: string;
  senderId: number;
  senderRole: SenderRole;
  text: string;
}

/** The ride_messages table: writes inside the caller's transaction (which holds the ride's lock), reads by ride. */
@Injectable()
export class RideMessagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(message: NewRideMessage, manager: EntityManager): Promise<RideMessageViewRow> {
    const rows = rowsOf<RideMessageViewRow>(
      await manager.query(
        `INSERT INTO ride_messages AS m (id, ride_id, sender_id, sender_role, text)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${RIDE_MESSAGE_VIEW_COLUMNS}`,
        [message.id, message.rideId, message.senderId, message.senderRole, message.text],
      ),
    );
    return rows[0]!;
  }

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
