import { Mailer } from '../../../common/messaging/mailer';
import { SmsGateway } from '../../../common/messaging/sms-gateway';
import { OtpMessage, OtpSender } from './otp-sender';
import { otpEmail, otpSmsText } from './otp-texts';

/** Codes for phones, as a text message through whichever SMS provider the composition root chose. */
export class SmsOtpSender extends OtpSender {
  readonly kind = 'phone';
  readonly channel: string;

  constructor(
    private readonly gateway: SmsGateway,
    private readonly appName: string,
  ) {
    super();
    this.channel = `sms:${gateway.provider}`;
  }

  send({ to, code, ttlSeconds }: OtpMessage, signal: AbortSignal): Promise<void> {
    return this.gateway.send(to, otpSmsText(this.appName, code, ttlSeconds), signal);
  }
}

/** Codes for e-mail addresses: plain text and HTML, the code in the subject. */
export class EmailOtpSender extends OtpSender {
  readonly kind = 'email';
  readonly channel: string;

  constructor(
    private readonly mailer: Mailer,
    private readonly appName: string,
  ) {
    super();
    this.channel = `email:${mailer.transport}`;
  }

  send({ to, code, ttlSeconds }: OtpMessage, signal: AbortSignal): Promise<void> {
    return this.mailer.send({ to, ...otpEmail(this.appName, code, ttlSeconds) }, signal);
  }
}
