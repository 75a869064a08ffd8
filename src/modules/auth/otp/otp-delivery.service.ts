import { Inject, Injectable, Logger } from '@nestjs/common';
import { asDeliveryError, DeliveryError, DeliveryFailureKind, untilAborted } from '../../../common/messaging/delivery-error';
import { Metrics } from '../../../common/metrics/metrics';
import { RetryBudget, withOneRetry } from '../../../common/errors/one-retry';
import { AppConfig } from '../../../config/app-config';
import { AuthError } from '../auth.errors';
import type { Contact } from '../services/contact-normalizer';
import { LogOtpSender, OTP_SENDERS, OtpContactKind, OtpMessage, OtpSender } from './otp-sender';

/** One retry, all of it within 5 s (CONTRACT §10); the first attempt leaves time for the retry. */
export const OTP_DELIVERY_BUDGET: RetryBudget = { budgetMs: 5000, firstAttemptMs: 3000, pauseMs: 200 };
/** `Retry-After` of a 503: the failed attempt counted towards no limit, so this is only a hint. */
export const OTP_RETRY_AFTER_SECONDS = 5;

export interface OtpDestination {
  sender: OtpSender;
  to: string;
}

type Outcome = 'delivered' | DeliveryFailureKind;

/**
 * Decides where a sign-in code goes and sends it there (CONTRACT §10): every contact the request
 * names that has a channel gets the code, at once; send-otp succeeds as soon as one of them took it.
 * Each channel gets one retry when the failure is worth one, within OTP_DELIVERY_BUDGET_MS in all.
 * The code never reaches the log in production: provider messages are logged with it blanked.
 */
@Injectable()
export class OtpDelivery {
  private readonly logger = new Logger('OtpDelivery');
  private readonly senders: Record<OtpContactKind, OtpSender | undefined>;

  constructor(
    @Inject(OTP_SENDERS) senders: readonly OtpSender[],
    config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    const pick = (kind: OtpContactKind): OtpSender | undefined =>
      senders.find((sender) => sender.kind === kind) ?? (config.isProduction ? undefined : new LogOtpSender(kind));
    this.senders = { phone: pick('phone'), email: pick('email') };
  }

  /** Where a code for this contact goes. A contact none of whose kinds has a channel is refused before anything is written. */
  destinations(contact: Contact): OtpDestination[] {
    const destinations: OtpDestination[] = [];
    if (contact.phone !== undefined && this.senders.phone) destinations.push({ sender: this.senders.phone, to: contact.phone });
    if (contact.email !== undefined && this.senders.email) destinations.push({ sender: this.senders.email, to: contact.email });
    if (destinations.length === 0) {
      throw new AuthError(contact.phone !== undefined ? 'PHONE_SIGN_IN_UNAVAILABLE' : 'EMAIL_SIGN_IN_UNAVAILABLE');
    }
    return destinations;
  }

  /**
   * Resolves when one destination took the code (the others go on in the background). When none
   * did: 400 "Invalid phone number" if the only verdicts were that the number is wrong, else 503.
   */
  async deliver(destinations: readonly OtpDestination[], code: string, ttlSeconds: number, userId: number): Promise<void> {
    const outcomes = await new Promise<Outcome[]>((resolve) => {
      const settled: Outcome[] = [];
      for (const destination of destinations) {
        const outcome = this.deliverOne(destination, { to: destination.to, code, ttlSeconds }, userId).catch((): Outcome => 'unavailable');
        void outcome.then((outcome) => {
          settled.push(outcome);
          if (outcome === 'delivered' || settled.length === destinations.length) resolve(settled);
        });
      }
    });
    if (outcomes.includes('delivered')) return;
    if (outcomes.every((outcome) => outcome === 'invalid_recipient')) throw new AuthError('INVALID_PHONE');
    throw new AuthError('OTP_DELIVERY_FAILED', undefined, OTP_RETRY_AFTER_SECONDS);
  }

  private async deliverOne({ sender }: OtpDestination, message: OtpMessage, userId: number): Promise<Outcome> {
    let failure: DeliveryError;
    try {
      const attempts = await withOneRetry(
        OTP_DELIVERY_BUDGET,
        async (ms, attempt) => {
          await attemptWithin(sender, message, ms);
          return attempt;
        },
        (err) => asDeliveryError(err).kind === 'unavailable',
      );
      this.metrics.otpSent.labels(sender.channel).inc();
      if (attempts > 1) this.logger.log({ msg: 'Sign-in code delivered on the retry', channel: sender.channel, user_id: userId });
      return 'delivered';
    } catch (err) {
      failure = asDeliveryError(err);
    }
    this.metrics.otpFailed.labels(sender.channel, failure.kind).inc();
    this.logger.warn({
      msg: 'Could not deliver a sign-in code',
      channel: sender.channel,
      user_id: userId,
      reason: failure.kind,
      // Provider messages are not ours: whatever they quote, the code is blanked out.
      detail: failure.message.split(message.code).join('******'),
    });
    return failure.kind;
  }
}

/** The attempt is abandoned (and told so through its signal) when it has not finished within `ms`. */
async function attemptWithin(sender: OtpSender, message: OtpMessage, ms: number): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const sending = sender.send(message, controller.signal);
  sending.catch(() => undefined);
  try {
    await untilAborted(sending, controller.signal, `${sender.channel}: no answer within ${ms} ms`);
  } catch (err) {
    if (controller.signal.aborted) throw new DeliveryError('unavailable', `${sender.channel}: no answer within ${ms} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
