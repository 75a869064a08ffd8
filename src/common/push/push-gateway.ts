/** One notification to one device. `data` values are strings (FCM refuses anything else). */
export interface PushMessage {
  token: string;
  data: Record<string, string>;
  title: string;
  body: string;
}

/** `unregistered`: the device token is dead (the app was uninstalled or its token rotated): forget it. */
export type PushResult = 'sent' | 'unregistered';

/**
 * Sends push notifications (FCM HTTP v1 today). Rejects with a DeliveryError when the message
 * could not be handed over. Bound by the composition root; null when push is not configured.
 */
export abstract class PushGateway {
  abstract send(message: PushMessage): Promise<PushResult>;
}
