import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A chat message between a ride's passenger and its assigned driver (migration 1763800015000). */
@Entity({ name: 'ride_messages' })
@Check('ride_messages_sender_role_check', `sender_role IN ('passenger', 'driver')`)
@Check('ride_messages_text_check', `char_length(text) >= 1`)
@Index('ride_messages_ride_created_idx', ['rideId', 'createdAt'])
export class RideMessageEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'ride_id', type: 'uuid' })
  @ForeignKey('rides', { name: 'ride_messages_ride_id_fkey', onDelete: 'CASCADE' })
  rideId!: string;

  /** Null once the sender's account is deleted (the message keeps its role and text). */
  @Column({ name: 'sender_id', type: 'int', nullable: true })
  @ForeignKey('users', { name: 'ride_messages_sender_id_fkey', onDelete: 'SET NULL' })
  senderId!: number | null;

  @Column({ name: 'sender_role', type: 'varchar', length: 16 })
  senderRole!: 'passenger' | 'driver';

  @Column({ type: 'varchar', length: 1000 })
  text!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
