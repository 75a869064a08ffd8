import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { UserError } from '../users.errors';
import { FileStorage } from '../../../common/storage/file-storage';

export type PictureType = 'png' | 'jpg' | 'webp';

export const PICTURE_CONTENT_TYPES: Record<PictureType, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** Stored file names: random hex plus the detected type; nothing else is ever served. */
export const PICTURE_FILE_NAME = /^([a-f0-9]{32})\.(png|jpg|webp)$/;

const DATA_URL = /^data:([a-z0-9.+/-]*)(;[a-z0-9=.+-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Decodes profile_picture_base64, checks it really is a PNG, JPEG or WebP, and stores it. */
@Injectable()
export class ProfilePictureService {
  private readonly logger = new Logger(ProfilePictureService.name);

  constructor(
    private readonly storage: FileStorage,
    private readonly config: AppConfig,
  ) {}

  /** Validates and decodes without storing (so a bad picture fails before anything is written). */
  decode(input: string): { bytes: Buffer; type: PictureType } {
    const body = input.trim().replace(DATA_URL, '').replace(/\s+/g, '');
    if (body.length === 0 || !BASE64.test(body)) throw new UserError('PICTURE_INVALID');
    // base64 is 4 characters per 3 bytes: refuse an oversized picture before allocating it.
    if (Math.floor((body.length * 3) / 4) - 2 > this.config.profilePictureMaxBytes) throw new UserError('PICTURE_TOO_LARGE');
    const bytes = Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
    if (bytes.length > this.config.profilePictureMaxBytes) throw new UserError('PICTURE_TOO_LARGE');
    const type = detectType(bytes);
    if (!type) throw new UserError('PICTURE_INVALID');
    return { bytes, type };
  }

  /** Stores a decoded picture under a random name and returns its public URL. */
  async store(picture: { bytes: Buffer; type: PictureType }): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}.${picture.type}`;
    await this.storage.save(name, picture.bytes);
    return `${this.config.publicBaseUrl}/uploads/${name}`;
  }

  /** Removes a picture this service stored, given its URL; other values are left alone. Never throws. */
  async discard(url: string | null | undefined): Promise<void> {
    const name = url?.slice(url.lastIndexOf('/') + 1);
    if (!name || !PICTURE_FILE_NAME.test(name)) return;
    await this.storage.remove(name).catch((err: unknown) => this.logger.warn({ err, msg: 'Could not remove a profile picture' }));
  }
}

function detectType(bytes: Buffer): PictureType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}
