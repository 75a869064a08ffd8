import { Global, Module } from '@nestjs/common';
import { SmtpMailer } from '../common/messaging/smtp-mailer';
import { SmsGateway } from '../common/messaging/sms-gateway';
import { TwilioSmsGateway } from '../common/messaging/twilio-sms-gateway';
import { FcmPushGateway } from '../common/push/fcm-push-gateway';
import { PushGateway } from '../common/push/push-gateway';
import { AppConfig } from '../config/app-config';
import type { SmsSettings } from '../config/outreach-config';
import { EmailOtpSender, SmsOtpSender } from '../modules/auth/otp/otp-channel-senders';
import { OTP_SENDERS, OtpSender } from '../modules/auth/otp/otp-sender';

/**
 * Chooses the channels that reach people outside the app (CONTRACT §10) from the configuration:
 * sign-in codes by e-mail over SMTP_URL and by SMS through SMS_PROVIDER, ride alerts by push
 * through FCM (null without FCM_SERVICE_ACCOUNT_FILE). A second SMS provider is one more
 * SmsGateway and one more case below; auth only knows its OtpSender port, realtime its
 * PushGateway. Global, so the modules inject them without importing the composition root.
 */
@Global()
@Module({
  providers: [
    { provide: OTP_SENDERS, inject: [AppConfig], useFactory: otpSenders },
    { provide: PushGateway, inject: [AppConfig], useFactory: pushGateway },
    // SOS texts (CONTRACT §14) go through the same SMS channel; null without SMS_PROVIDER.
    { provide: SmsGateway, inject: [AppConfig], useFactory: ({ outreach }: AppConfig) => (outreach.sms ? smsGateway(outreach.sms) : null) },
  ],
  exports: [OTP_SENDERS, PushGateway, SmsGateway],
})
export class OutreachChannelsModule {}

function pushGateway({ outreach }: AppConfig): PushGateway | null {
  return outreach.push ? new FcmPushGateway(outreach.push) : null;
}

function otpSenders({ outreach }: AppConfig): OtpSender[] {
  const senders: OtpSender[] = [];
  if (outreach.mail) senders.push(new EmailOtpSender(new SmtpMailer(outreach.mail), outreach.appName));
  if (outreach.sms) senders.push(new SmsOtpSender(smsGateway(outreach.sms), outreach.appName));
  return senders;
}

function smsGateway(settings: SmsSettings): SmsGateway {
  switch (settings.provider) {
    case 'twilio':
      return new TwilioSmsGateway(settings);
  }
}
