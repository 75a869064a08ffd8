import { AppConfig } from '../../../config/app-config';
import { DomainError } from '../../../common/errors/domain.error';
import { FileStorage } from '../../../common/storage/file-storage';
import { PICTURE_FILE_NAME, ProfilePictureService } from './profile-picture.service';

class MemoryStorage extends FileStorage {
  readonly files = new Map<string, Buffer>();
  async save(name: string, bytes: Buffer): Promise<void> {
    this.files.set(name, bytes);
  }
  async read(name: string): Promise<Buffer | undefined> {
    return this.files.get(name);
  }
  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function service(maxBytes = 1024): { pictures: ProfilePictureService; storage: MemoryStorage } {
  const storage = new MemoryStorage();
  const config = AppConfig.fromEnv({ PROFILE_PICTURE_MAX_BYTES: String(maxBytes), PUBLIC_BASE_URL: 'https://x.test/' });
  return { pictures: new ProfilePictureService(storage, config), storage };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as DomainError).code;
  }
}

describe('ProfilePictureService', () => {
  it('detects PNG, JPEG and WebP by their bytes, from base64 or a data: URL', () => {
    const { pictures } = service();
    expect(pictures.decode(PNG.toString('base64')).type).toBe('png');
    expect(pictures.decode(`data:image/png;base64,${PNG.toString('base64')}`).type).toBe('png');
    expect(pictures.decode(Buffer.from([0xff, 0xd8, 0xff, 0xdb, 1, 2]).toString('base64')).type).toBe('jpg');
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    expect(pictures.decode(webp.toString('base64')).type).toBe('webp');
  });

  it('refuses other content and bad base64 (PICTURE_INVALID), oversized pictures (PICTURE_TOO_LARGE)', () => {
    const { pictures } = service(1024);
    expect(codeOf(() => pictures.decode(Buffer.from('GIF89a....').toString('base64')))).toBe('PICTURE_INVALID');
    expect(codeOf(() => pictures.decode('***'))).toBe('PICTURE_INVALID');
    expect(codeOf(() => pictures.decode(''))).toBe('PICTURE_INVALID');
    expect(codeOf(() => pictures.decode(Buffer.concat([PNG, Buffer.alloc(2000)]).toString('base64')))).toBe('PICTURE_TOO_LARGE');
  });

  it('stores under a random generated name and returns the public URL; discard removes only generated names', async () => {
    const { pictures, storage } = service();
    const url = await pictures.store(pictures.decode(PNG.toString('base64')));
    expect(url).toMatch(/^https:\/\/x\.test\/uploads\/[0-9a-f]{32}\.png$/);
    const name = url.slice(url.lastIndexOf('/') + 1);
    expect(PICTURE_FILE_NAME.test(name)).toBe(true);
    expect(storage.files.get(name)?.equals(PNG)).toBe(true);
    await pictures.discard('https://elsewhere.test/avatar.png');
    expect(storage.files.size).toBe(1);
    await pictures.discard(url);
    expect(storage.files.size).toBe(0);
  });
});
