import { createHmac, createSecretKey, KeyObject, randomInt, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';

export const OTP_TTL_SECONDS = 5 * 60;
const OTP_DIGITS = 6;

/**
 * Generates codes and the hashes stored in their place. The hash is an HMAC keyed by the server
 * secret and bound to the user, so a leaked table does not give six-digit codes away.
 */
@Injectable()
export class OtpCodes {
  private readonly key: KeyObject;

  constructor(private readonly config: AppConfig) {
    this.key = createSecretKey(Buffer.from(`otp:${config.jwtSecret}`, 'utf8'));
  }

  /** 6 digits from a cryptographic source; the configured fixed code in development only (AppConfig enforces it). */
  generate(): string {
    return this.config.otpDevFixedCode ?? String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
  }

  hash(userId: number, code: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${code.trim()}`).digest('hex');
  }

  /** Constant-time comparison of the submitted code's hash with the stored one. */
  matches(userId: number, submitted: string, storedHash: string | null): boolean {
    if (!storedHash) return false;
    const expected = Buffer.from(storedHash, 'hex');
    const actual = Buffer.from(this.hash(userId, submitted), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
