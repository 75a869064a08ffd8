import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export const DOCUMENT_KINDS = ['license', 'vehicle_registration', 'insurance'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * A document a driver uploaded for approval (CONTRACT §13), one per driver and kind. The bytes are
 * in the file store under `storage_name`, a generated name that the public /uploads route never
 * serves; only operators fetch them.
 */
@Entity({ name: 'driver_documents' })
@Check('driver_documents_kind_check', `kind IN ('license', 'vehicle_registration', 'insurance')`)
@Check('driver_documents_size_check', `size > 0`)
@Index('driver_documents_driver_kind_uq', ['driverId', 'kind'], { unique: true })
export class DriverDocumentEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'driver_id', type: 'int' })
  @ForeignKey('drivers', { name: 'driver_documents_driver_id_fkey', onDelete: 'CASCADE' })
  driverId!: number;

  @Column({ type: 'varchar', length: 32 })
  kind!: DocumentKind;

  @Column({ name: 'content_type', type: 'varchar', length: 64 })
  contentType!: string;

  @Column({ type: 'int' })
  size!: number;

  @Column({ name: 'storage_name', type: 'varchar', length: 128 })
  storageName!: string;

  @Column({ name: 'uploaded_at', type: 'timestamptz', default: () => 'now()' })
  uploadedAt!: Date;
}
