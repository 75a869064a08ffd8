import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One SMS an SOS sends to one emergency contact, with its delivery state (retried while pending). */
@Entity({ name: 'sos_texts' })
@Check('sos_texts_status_check', `status IN ('pending', 'sent', 'failed')`)
@Index('sos_texts_sos_idx', ['sosId', 'id'])
@Index('sos_texts_due_idx', ['nextAttemptAt'], { where: `status = 'pending'` })
export class SosTextEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'sos_id', type: 'bigint' })
  @ForeignKey('sos_alerts', { name: 'sos_texts_sos_id_fkey', onDelete: 'CASCADE' })
  sosId!: string;

  @Column({ name: 'contact_name', type: 'varchar', length: 100 })
  contactName!: string;

  @Column({ type: 'varchar', length: 16 })
  phone!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: 'pending' | 'sent' | 'failed';

  @Column({ type: 'smallint', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
