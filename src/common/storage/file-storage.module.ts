import { Module } from '@nestjs/common';
import { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

/**
 * The one file store (profile pictures, driver documents): local disk under UPLOAD_DIR; an
 * object-storage implementation of FileStorage would be bound here instead.
 */
@Module({
  providers: [{ provide: FileStorage, useClass: LocalFileStorage }],
  exports: [FileStorage],
})
export class FileStorageModule {}
