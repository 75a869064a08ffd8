/**
 * Sends one text message. One implementation per provider (Twilio today); the composition root
 * picks it from SMS_PROVIDER, so another provider needs no change where texts are written.
 */
export abstract class SmsGateway {
  /** Names the provider in metrics and logs. */
  abstract readonly provider: string;
  /** Resolves once the provider accepted the message; rejects with a DeliveryError. Gives up when `signal` aborts. */
  abstract send(to: string, body: string, signal: AbortSignal): Promise<void>;
}
