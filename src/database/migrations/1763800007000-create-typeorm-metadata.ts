import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TypeORM's schema diff (`migration:generate`, the schema test) reads the expression of a generated
 * column from its own "typeorm_metadata" table, keyed by current_database(); without a row it sees
 * rides.pickup_geo as changed, and without the table it fails. A plain table would pin the database
 * name at migration time, so a clone (the test template) or a restore under another name would
 * disagree: the view answers with whatever database it is read in. Inserts through the view (as
 * generated migrations write them) land in the entries table; deletes go through the view as usual.
 */
export class CreateTypeormMetadata1763800007000 implements MigrationInterface {
  name = 'CreateTypeormMetadata1763800007000';

  async up(q: QueryRunner): Promise<void> {
    // The migration runner creates TypeORM's own table before running migrations once an entity has
    // a generated column: its rows (if any) move into the entries table and the view replaces it.
    const [{ existing }] = await q.query(
      `SELECT c.relkind = 'r' AS existing FROM (SELECT to_regclass('typeorm_metadata') AS oid) r
       LEFT JOIN pg_class c ON c.oid = r.oid`,
    );
    await q.query(`
      CREATE TABLE typeorm_metadata_entries (
        type     varchar NOT NULL,
        "schema" varchar,
        "table"  varchar,
        name     varchar,
        value    text
      )`);
    if (existing) {
      await q.query(
        `INSERT INTO typeorm_metadata_entries (type, "schema", "table", name, value)
         SELECT type, "schema", "table", name, value FROM typeorm_metadata
         WHERE "database" IS NULL OR "database" = current_database()`,
      );
      await q.query(`DROP TABLE typeorm_metadata`);
    }
    await q.query(`
      CREATE VIEW typeorm_metadata AS
        SELECT type, current_database()::varchar AS "database", "schema", "table", name, value
        FROM typeorm_metadata_entries`);
    await q.query(`
      CREATE FUNCTION typeorm_metadata_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO typeorm_metadata_entries (type, "schema", "table", name, value)
        VALUES (NEW.type, NEW."schema", NEW."table", NEW.name, NEW.value);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER typeorm_metadata_insert INSTEAD OF INSERT ON typeorm_metadata
      FOR EACH ROW EXECUTE FUNCTION typeorm_metadata_insert()`);
    // Must equal the asExpression of RideEntity.pickupGeo (TypeORM compares the text).
    await q.query(`DELETE FROM typeorm_metadata_entries WHERE type = 'GENERATED_COLUMN' AND "table" = 'rides' AND name = 'pickup_geo'`);
    await q.query(
      `INSERT INTO typeorm_metadata_entries (type, "schema", "table", name, value)
       VALUES ('GENERATED_COLUMN', current_schema(), 'rides', 'pickup_geo', $1)`,
      ['point(pickup_longitude * cosd(pickup_latitude), pickup_latitude)'],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW typeorm_metadata`);
    await q.query(`DROP FUNCTION typeorm_metadata_insert`);
    await q.query(`DROP TABLE typeorm_metadata_entries`);
  }
}
