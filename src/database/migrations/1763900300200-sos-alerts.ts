import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SOS alerts (CONTRACT §14) and the texts each sends to the raiser's emergency contacts. An alert is
 * stored, with one row per text to send, before anything is sent: a crash after the commit loses
 * nothing, and the texts still pending are sent again. At most one open alert per ride (the partial
 * unique index decides between two raised at once). No foreign key to rides: an alert is kept as
 * evidence even if the ride row goes with an account.
 */
export class SosAlerts1763900300200 implements MigrationInterface {
  name = 'SosAlerts1763900300200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sos_alerts (
        id                bigserial    PRIMARY KEY,
        ride_id           uuid         NOT NULL,
        raised_by         varchar(16)  NOT NULL CHECK (raised_by IN ('passenger', 'driver')),
        raised_by_user_id integer      NOT NULL,
        source            varchar(16)  NOT NULL DEFAULT 'button' CHECK (source IN ('button', 'ride_check')),
        status            varchar(16)  NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        latitude          float8,
        longitude         float8,
        created_at        timestamptz  NOT NULL DEFAULT now(),
        resolved_at       timestamptz,
        resolved_by       integer,
        resolution_reason varchar(500),
        CONSTRAINT sos_alerts_resolved_check CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX sos_alerts_open_ride_uq ON sos_alerts (ride_id) WHERE status = 'open'`);
    await q.query(`CREATE INDEX sos_alerts_status_idx ON sos_alerts (status, id)`);
    await q.query(`
      CREATE TABLE sos_texts (
        id              bigserial    PRIMARY KEY,
        sos_id          bigint       NOT NULL CONSTRAINT sos_texts_sos_id_fkey REFERENCES sos_alerts (id) ON DELETE CASCADE,
        contact_name    varchar(100) NOT NULL,
        phone           varchar(16)  NOT NULL,
        status          varchar(16)  NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts        smallint     NOT NULL DEFAULT 0,
        last_error      varchar(500),
        next_attempt_at timestamptz  NOT NULL DEFAULT now(),
        sent_at         timestamptz
      )`);
    await q.query(`CREATE INDEX sos_texts_sos_idx ON sos_texts (sos_id, id)`);
    await q.query(`CREATE INDEX sos_texts_due_idx ON sos_texts (next_attempt_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sos_texts`);
    await q.query(`DROP TABLE sos_alerts`);
  }
}
