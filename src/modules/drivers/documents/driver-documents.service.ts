import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { FileStorage } from '../../../common/storage/file-storage';
import { DriversRepository } from '../drivers.repository';
import { DriverError } from '../drivers.errors';
import { DriverDocumentResponseDto } from '../dto/driver-document-response.dto';
import type { DocumentUpload } from './document-upload';
import { DriverDocumentRow, DriverDocumentsRepository } from './driver-documents.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Driver documents (CONTRACT §13): uploaded by the driver, one per kind, read by operators only.
 * Stored names start with `driver-document-` and carry no extension, so the public /uploads route
 * (which serves only `<32 hex>.<png|jpg|webp>`) can never serve one.
 */
@Injectable()
export class DriverDocumentsService {
  private readonly logger = new Logger(DriverDocumentsService.name);

  constructor(
    private readonly documents: DriverDocumentsRepository,
    private readonly drivers: DriversRepository,
    private readonly storage: FileStorage,
  ) {}

  /** Stores the file, then swaps the row in one transaction; the replaced file goes after the commit. */
  async upload(driverId: number, upload: DocumentUpload): Promise<DriverDocumentResponseDto> {
    const id = randomUUID();
    const storageName = `driver-document-${id}`;
    await this.storage.save(storageName, upload.bytes);
    let result: { inserted: DriverDocumentRow; replaced?: string };
    try {
      result = await this.documents.runInTransaction(async (manager) => {
        if (!(await this.drivers.lockByUserId(driverId, manager))) throw new DriverError('DRIVER_NOT_FOUND');
        return this.documents.replace(
          { id, driver_id: driverId, kind: upload.kind, content_type: upload.contentType, size: upload.bytes.length, storage_name: storageName },
          manager,
        );
      });
    } catch (err) {
      await this.discard(storageName);
      throw err;
    }
    if (result.replaced) await this.discard(result.replaced);
    return toDto(result.inserted);
  }

  async list(driverId: number): Promise<DriverDocumentResponseDto[]> {
    return (await this.documents.findByDriver(driverId)).map(toDto);
  }

  /** An operator's view of a driver's documents: 404 when the driver has no record. */
  async listOfDriver(driverId: number): Promise<DriverDocumentResponseDto[]> {
    if (!(await this.drivers.findByUserId(driverId))) throw new DriverError('DRIVER_NOT_FOUND');
    return this.list(driverId);
  }

  async file(id: string): Promise<{ bytes: Buffer; contentType: string }> {
    const row = UUID.test(id) ? await this.documents.findById(id) : undefined;
    const bytes = row ? await this.storage.read(row.storage_name) : undefined;
    if (!row || !bytes) throw new DriverError('DOCUMENT_NOT_FOUND');
    return { bytes, contentType: row.content_type };
  }

  private async discard(name: string): Promise<void> {
    try {
      await this.storage.remove(name);
    } catch (err) {
      // An orphaned file costs disk, not correctness: the row decides what exists.
      this.logger.warn(`Could not remove ${name}: ${(err as Error).message}`);
    }
  }
}

function toDto(row: DriverDocumentRow): DriverDocumentResponseDto {
  return { id: row.id, kind: row.kind, content_type: row.content_type, size: row.size, uploaded_at: new Date(row.uploaded_at).toISOString() };
}
