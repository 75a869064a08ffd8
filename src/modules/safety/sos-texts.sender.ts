import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { asDeliveryError, DeliveryError } from '../../common/messaging/delivery-error';
import { SmsGateway } from '../../common/messaging/sms-gateway';
import { AppConfig } from '../../config/app-config';
import { TripSharingService } from '../trip-sharing/trip-sharing.service';
import { EmergencyContactsService } from '../users/emergency-contacts.service';
import { SosAlertsRepository } from './sos-alerts.repository';

/** Seconds before each retry of a failed text; after the last, the text is given up (`failed`, shown to operators). */
const RETRY_AFTER_SECONDS = [2, 10, 60, 300];
/** How long one attempt holds its text against other instances' sweeps. */
const LEASE_SECONDS = 30;
/** Texts still pending (an instance that stopped mid-way, a retry due) are looked for this often. */
const SWEEP_MS = 30_000;
const BATCH = 50;
const SEND_TIMEOUT_MS = 5000;

/**
 * Sends an SOS's texts (CONTRACT §14) through §10's SMS channel: each emergency contact of the
 * raiser gets the raiser's first name and a share link of the ride made for that text. Texts are
 * rows stored with the alert; this sends them after the commit, and a failed one is tried again
 * later (RETRY_AFTER_SECONDS) by a timer, and by a periodic sweep that also picks up texts an
 * instance left pending. Its state is in the rows, which operators read.
 */
@Injectable()
export class SosTextsSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SosTextsSender.name);
  private readonly timers = new Set<NodeJS.Timeout>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly alerts: SosAlertsRepository,
    @Inject(SmsGateway) private readonly gateway: SmsGateway | null,
    private readonly sharing: TripSharingService,
    private readonly contacts: EmergencyContactsService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.send(), SWEEP_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Sends what is due (of one alert, or any); never throws. */
  async send(sosId?: string): Promise<void> {
    try {
      const due = await this.alerts.claimDue(BATCH, LEASE_SECONDS, sosId);
      await Promise.all(due.map((text) => this.sendOne(text)));
    } catch (err) {
      this.logger.error({ err, msg: 'Sending SOS texts failed' });
    }
  }

  private async sendOne(text: { id: string; phone: string; attempts: number; ride_id: string; raised_by_user_id: number }): Promise<void> {
    try {
      // Nothing to retry: the deployment has no SMS channel (operators see the texts failed).
      if (!this.gateway) throw new DeliveryError('refused', 'No SMS channel is configured (SMS_PROVIDER)');
      const raiser = await this.contacts.findForAlert(text.raised_by_user_id);
      const link = await this.sharing.shareForAlert(text.ride_id);
      const name = raiser?.firstName?.trim() || 'Someone who listed you as an emergency contact';
      const body = `${this.config.outreach.appName}: ${name} pressed SOS during a ride and may need help. Follow the trip live: ${link.url}`;
      await this.gateway.send(text.phone, body, AbortSignal.timeout(SEND_TIMEOUT_MS));
      await this.alerts.markSent(text.id);
    } catch (err) {
      const failure = asDeliveryError(err);
      const retry = failure.kind === 'unavailable' ? (RETRY_AFTER_SECONDS[text.attempts - 1] ?? null) : null;
      this.logger.warn({ msg: 'An SOS text was not delivered', text_id: text.id, attempts: text.attempts, retry_in_s: retry, error: failure.message });
      await this.alerts
        .markFailed(text.id, failure.message, retry)
        .catch((e: unknown) => this.logger.error({ err: e, msg: 'Recording an SOS text failure failed' }));
      if (retry !== null) this.later(retry * 1000);
    }
  }

  private later(ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.send();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
