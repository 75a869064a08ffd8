import { InProcessEventBus } from '../../common/events/in-process-event-bus';
import { subscribeDomainEventHandlers } from '../../common/events/on-domain-event';
import type { AppConfig } from '../../config/app-config';
import { UsersService } from './users.service';
import type { UserAuthState, UsersRepository } from './users.repository';

const ACTIVE: UserAuthState = { id: 5, role: 'passenger', isActive: true, isBlocked: false, isRegistered: true } as UserAuthState;

describe('UsersService auth-state cache', () => {
  it('a read that started before a block cannot put the unblocked state back into the cache', async () => {
    let finishRead: (state: UserAuthState) => void = () => undefined;
    const users = { findAuthState: jest.fn(() => new Promise<UserAuthState>((resolve) => (finishRead = resolve))) };
    const events = new InProcessEventBus();
    const service = new UsersService(
      users as unknown as UsersRepository,
      { userStateCacheMs: 60_000, userStateCacheMaxEntries: 1000 } as AppConfig,
      null as never,
      null as never,
      events,
      null as never,
      null as never,
      null as never,
    );
    const unsubscribe = subscribeDomainEventHandlers(events, service);
    const read = service.getAuthState(5); // the guard reads the state: "active"...
    events.publish('user.access_revoked', { user_id: 5, reason: 'blocked' });
    await new Promise((resolve) => setImmediate(resolve)); // ...the block's event arrives first...
    finishRead(ACTIVE); // ...then the old read finishes
    expect(await read).toEqual(ACTIVE);
    expect(service.peekAuthState(5)).toBeUndefined(); // the next request reads the database again
    unsubscribe();
  });
});
