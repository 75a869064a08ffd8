import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { FileStorage } from './file-storage';

/** Files in config.uploadDir. Names are reduced to their base name, so no path can escape the directory. */
@Injectable()
export class LocalFileStorage extends FileStorage {
  private readonly dir: string;
  private dirReady: Promise<unknown> | undefined;

  constructor(config: AppConfig) {
    super();
    this.dir = resolve(config.uploadDir);
  }

  async save(name: string, bytes: Buffer): Promise<void> {
    this.dirReady ??= mkdir(this.dir, { recursive: true });
    await this.dirReady;
    await writeFile(this.pathOf(name), bytes, { flag: 'wx' });
  }

  async read(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  private pathOf(name: string): string {
    return resolve(this.dir, basename(name));
  }
}
