import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Driver documents (CONTRACT §13): at most one file per driver and kind (a new upload replaces the
 * old). The bytes live in the file store under `storage_name`; the row says what they are, checked
 * from the bytes themselves at upload.
 */
export class DriverDocuments1763900200000 implements MigrationInterface {
  name = 'DriverDocuments1763900200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE driver_documents (
        id           uuid         PRIMARY KEY,
        driver_id    integer      NOT NULL,
        kind         varchar(32)  NOT NULL,
        content_type varchar(64)  NOT NULL,
        size         integer      NOT NULL,
        storage_name varchar(128) NOT NULL,
        uploaded_at  timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT driver_documents_driver_id_fkey FOREIGN KEY (driver_id) REFERENCES drivers(user_id) ON DELETE CASCADE,
        CONSTRAINT driver_documents_kind_check CHECK (kind IN ('license', 'vehicle_registration', 'insurance')),
        CONSTRAINT driver_documents_size_check CHECK (size > 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX driver_documents_driver_kind_uq ON driver_documents (driver_id, kind)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE driver_documents`);
  }
}
