import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators (CONTRACT §13): a user with role `operator` has an `operator_role`, and no one else has
 * one. The audit trail: one row per operator write, written in the write's own transaction. It has
 * no foreign keys on purpose: it outlives the accounts and rides it names, and a cascading
 * `SET NULL` would be an UPDATE, which the trail refuses. Triggers make it append-only for every
 * database role, the owner's included: UPDATE and DELETE of a row, and TRUNCATE, raise an error.
 */
export class OperatorsAndAudit1763800018000 implements MigrationInterface {
  name = 'OperatorsAndAudit1763800018000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('passenger', 'driver', 'operator'))`);
    await q.query(`ALTER TABLE users ADD COLUMN operator_role varchar(16)`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_operator_role_check CHECK (operator_role IN ('support', 'ops', 'finance', 'admin'))`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_operator_check CHECK ((role = 'operator') = (operator_role IS NOT NULL))`);

    await q.query(`
      CREATE TABLE audit_log (
        id          bigserial    PRIMARY KEY,
        actor_id    integer,
        action      varchar(64)  NOT NULL,
        target_type varchar(32)  NOT NULL,
        target_id   varchar(64)  NOT NULL,
        reason      varchar(500) NOT NULL CHECK (char_length(reason) >= 3),
        details     jsonb        NOT NULL DEFAULT '{}',
        created_at  timestamptz  NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX audit_log_target_idx ON audit_log (target_id, id)`);
    await q.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, id)`);
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP FUNCTION audit_log_append_only`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_operator_check`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_operator_role_check`);
    await q.query(`ALTER TABLE users DROP COLUMN operator_role`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('passenger', 'driver'))`);
  }
}
