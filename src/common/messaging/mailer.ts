export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one e-mail (SMTP today; an HTTP mail API would be another implementation). */
export abstract class Mailer {
  /** Names the transport in metrics and logs. */
  abstract readonly transport: string;
  /** Resolves once the server accepted the message; rejects with a DeliveryError. Gives up when `signal` aborts. */
  abstract send(message: MailMessage, signal: AbortSignal): Promise<void>;
}
