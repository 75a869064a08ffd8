/**
 * Where uploaded files live. The default keeps them in a local directory (UPLOAD_DIR); another
 * implementation (object storage) can replace it without touching the services.
 */
export abstract class FileStorage {
  /** Stores the bytes under `name` (a generated, path-free file name). */
  abstract save(name: string, bytes: Buffer): Promise<void>;
  /** The bytes stored under `name`, or undefined when there are none. */
  abstract read(name: string): Promise<Buffer | undefined>;
  /** Removes `name`; a missing file is not an error. */
  abstract remove(name: string): Promise<void>;
}
