import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user';
import { EventBus } from '../../../common/events/event-bus';
import { RateLimiter } from '../../../common/rate-limit/rate-limiter';
import { AppConfig } from '../../../config/app-config';
import { RideViewCache } from '../read-models/ride-view.cache';
import { RideError } from '../rides.errors';
import { isUuid } from '../rides.service';
import { RideTransitionsService } from '../transitions/ride-transitions.service';
import { rideMessageToJson, RideMessageView, RideMessageViewRow } from './ride-message-view';
import { insertMessageWhere, RideMessagesRepository } from './ride-messages.repository';
import { chatSideOf, messageText, RIDE_CHAT_RULES } from './ride-chat.rules';

export interface RideMessagePage {
  items: RideMessageView[];
  page: number;
  limit: number;
  total: number;
}

/**
 * In-ride chat (CONTRACT §11) between a ride's passenger and its assigned driver. Sending changes
 * no ride, so it is no transition command; it is judged by RIDE_CHAT_RULES the way the transition
 * engine judges a command, through the engine's locking helper (one statement under a shared lock
 * of the ride row, so that no message is stored after a concurrent status change ended the ride).
 * The recipient is told after the commit.
 */
@Injectable()
export class RideChatService {
  constructor(
    private readonly messages: RideMessagesRepository,
    private readonly transitions: RideTransitionsService,
    private readonly rideViews: RideViewCache,
    private readonly limiter: RateLimiter,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  async send(user: AuthenticatedUser, rideId: string, rawText: string): Promise<RideMessageView> {
    const text = messageText(rawText);
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    await this.limiter.enforce(`chat:${user.id}`, this.config.chatMessagesPerMinute, 60);
    const { locked, acted } = await this.transitions.actOnRide<RideMessageViewRow>(
      rideId,
      user,
      'share',
      RIDE_CHAT_RULES.send,
      insertMessageWhere({ id: randomUUID(), senderId: user.id, text }),
    );
    const role = chatSideOf('send', locked, user);
    if (!acted || !locked) throw new Error('the chat statement refused what its rules allow');
    const message = rideMessageToJson(acted);
    const recipient = role === 'passenger' ? locked.driver_id : locked.passenger_id;
    this.events.publish('ride.message_sent', { ride_id: locked.id, sender_role: role, recipient_id: recipient, message });
    return message;
  }

  /** The ride's messages, oldest first, for its passenger or driver, in any status (readable after the ride ends). */
  async list(user: AuthenticatedUser, rideId: string, page: number, limit: number): Promise<RideMessagePage> {
    if (!isUuid(rideId)) throw new RideError('RIDE_NOT_FOUND');
    const id = rideId.toLowerCase();
    const ride = this.rideViews.peek(id) ?? (await this.rideViews.get(id));
    chatSideOf('read', ride && { passenger_id: ride.passengerId, driver_id: ride.driverId, status: ride.json.status }, user);
    const { rows, total } = await this.messages.listForRide(id, (page - 1) * limit, limit);
    return { items: rows.map(rideMessageToJson), page, limit, total };
  }
}
