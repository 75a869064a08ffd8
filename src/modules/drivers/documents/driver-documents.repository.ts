import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { DocumentKind } from '../entities/driver-document.entity';

export interface DriverDocumentRow {
  id: string;
  driver_id: number;
  kind: DocumentKind;
  content_type: string;
  size: number;
  storage_name: string;
  uploaded_at: Date | string;
}

const COLUMNS = 'id, driver_id, kind, content_type, size, storage_name, uploaded_at';

@Injectable()
export class DriverDocumentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  runInTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Puts `row` in place of the driver's document of its kind, returning the replaced one's file
   * name. The caller holds the driver's row lock, so two uploads of one kind take turns.
   */
  async replace(row: Omit<DriverDocumentRow, 'uploaded_at'>, manager: EntityManager): Promise<{ inserted: DriverDocumentRow; replaced?: string }> {
    const old: Array<{ storage_name: string }> = await manager.query(`DELETE FROM driver_documents WHERE driver_id = $1 AND kind = $2 RETURNING storage_name`, [
      row.driver_id,
      row.kind,
    ]);
    const [inserted] = (await manager.query(
      `INSERT INTO driver_documents (id, driver_id, kind, content_type, size, storage_name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [row.id, row.driver_id, row.kind, row.content_type, row.size, row.storage_name],
    )) as DriverDocumentRow[];
    return { inserted: inserted!, replaced: old[0]?.storage_name };
  }

  async findByDriver(driverId: number, manager?: EntityManager): Promise<DriverDocumentRow[]> {
    return this.m(manager).query(`SELECT ${COLUMNS} FROM driver_documents WHERE driver_id = $1 ORDER BY kind`, [driverId]);
  }

  async findById(id: string): Promise<DriverDocumentRow | undefined> {
    const rows: DriverDocumentRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM driver_documents WHERE id = $1`, [id]);
    return rows[0];
  }

  /** The kinds a driver has on file. */
  async kindsOf(driverId: number, manager?: EntityManager): Promise<DocumentKind[]> {
    const rows: Array<{ kind: DocumentKind }> = await this.m(manager).query(`SELECT kind FROM driver_documents WHERE driver_id = $1`, [driverId]);
    return rows.map((r) => r.kind);
  }
}
