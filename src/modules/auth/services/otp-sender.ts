import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';

export interface OtpMessage {
  userId: number;
  phone: string | null;
  email: string | null;
  code: string;
  expiresAt: Date;
}

/**
 * Delivers a one-time code to its owner. The spec has no delivery (SMS, e-mail): the default
 * writes the code to the server log. An SMS gateway would be another implementation.
 */
export abstract class OtpSender {
  abstract send(message: OtpMessage): Promise<void>;
}

@Injectable()
export class LogOtpSender extends OtpSender {
  private readonly logger = new Logger('OtpDelivery');

  constructor(private readonly config: AppConfig) {
    super();
  }

  async send({ userId, phone, email, code, expiresAt }: OtpMessage): Promise<void> {
    const to = { user_id: userId, phone, email, expires_at: expiresAt.toISOString() };
    // Never in production: the log would become a way to take over accounts.
    if (this.config.isProduction) this.logger.log({ msg: 'OTP issued (code not logged in production)', ...to });
    else this.logger.log({ msg: `OTP for ${phone ?? email}: ${code}`, ...to, otp: code });
  }
}
