import { Logger } from '@nestjs/common';

/** The contact kinds a code can prove: the request's `phone` and `email`. */
export type OtpContactKind = 'phone' | 'email';

export interface OtpMessage {
  /** The phone number (E.164) or e-mail address, normalised. */
  to: string;
  code: string;
  ttlSeconds: number;
}

/**
 * The port through which sign-in codes leave the service: one channel per contact kind (SMS for
 * phones, e-mail for addresses). Adapters are chosen by the composition root from the
 * configuration (src/bootstrap/otp-channels.module.ts) and handed in as OTP_SENDERS.
 */
export abstract class OtpSender {
  abstract readonly kind: OtpContactKind;
  /** Names the channel in metrics and logs (`sms:twilio`, `email:smtp`, `log`). */
  abstract readonly channel: string;
  /** Resolves once the provider took the message; rejects with a DeliveryError. Gives up when `signal` aborts. */
  abstract send(message: OtpMessage, signal: AbortSignal): Promise<void>;
}

/** Injection token of the configured senders (`OtpSender[]`, at most one per kind). */
export const OTP_SENDERS = Symbol('OTP_SENDERS');

/**
 * Outside production, a contact kind without a channel gets its code in the server log, so a
 * developer can sign in without a provider. Never constructed in production.
 */
export class LogOtpSender extends OtpSender {
  readonly channel = 'log';
  private readonly logger = new Logger('OtpDelivery');

  constructor(readonly kind: OtpContactKind) {
    super();
  }

  async send({ to, code, ttlSeconds }: OtpMessage): Promise<void> {
    this.logger.log({ msg: `OTP for ${to}: ${code}`, to, otp: code, expires_in: ttlSeconds });
  }
}
