'use strict';
/**
 * What each simulated user received over its socket, and the events it must receive: an expected
 * event is judged missing once eventTimeoutMs have passed since the REST response that caused it.
 * Its latency is its arrival − the moment that request was sent: the service publishes an event
 * after its commit, often before its response has reached the client, so timed from the response
 * most events would read as arriving before their cause.
 * Expectations and received events are indexed by user and ride: at hundreds of users a scan of
 * every pending expectation per message stalls the simulator (and its timings) for seconds.
 */
// How long a user's received events are kept for matching (an event may arrive before the REST
// response that caused it; expectations look back this far).
const INBOX_KEEP_MS = 60_000;

function createInbox({ eventTimeoutMs, report, counters, latencies, users, now }) {
  const pending = new Set();
  let prunedAt = now();

  const settle = (e) => {
    pending.delete(e);
    e.user.pending.delete(e);
  };

  /**
   * `cause`: the ApiClient answer of the request that causes the event ({sentAt, at}). `excused(e)`,
   * asked at the deadline, may clear a miss the simulation itself cannot rule out.
   */
  const expectEvent = (user, label, rideId, match, cause, excused) => {
    const received = user.inbox.get(rideId);
    const found = received && received.messages.find((m) => match(m.message));
    if (found) return latencies.add(label, found.at - cause.sentAt);
    const e = { user, label, rideId, match, sentAt: cause.sentAt, deadline: cause.at + eventTimeoutMs, excused };
    pending.add(e);
    user.pending.add(e);
  };

  const judge = () => {
    for (const e of pending) {
      if (now() > e.deadline) {
        settle(e);
        if (e.excused && e.excused(e)) {
          counters.excused++;
          continue;
        }
        report('missing-event', `${e.label} for ride ${e.rideId} did not reach ${e.user.role} ${e.user.id} within ${eventTimeoutMs} ms`);
      }
    }
    if (now() - prunedAt < 5000) return;
    prunedAt = now();
    for (const u of users.values()) for (const [rideId, r] of u.inbox) if (now() - r.last > INBOX_KEEP_MS) u.inbox.delete(rideId);
  };
  // Judged after the event loop has read the sockets: on a busy machine a late timer would otherwise
  // call an event missing that sits unread in a socket buffer.
  const sweeper = setInterval(() => setImmediate(judge), 250);

  /** Files a received event, settles the expectations and waits it meets. */
  const deliver = (user, message, at) => {
    const received = user.inbox.get(message.ride_id) || { messages: [], last: at };
    received.messages.push({ message, at });
    received.last = at;
    user.inbox.set(message.ride_id, received);
    for (const e of user.pending) {
      if (e.rideId === message.ride_id && e.match(message)) {
        settle(e);
        latencies.add(e.label, at - e.sentAt);
      }
    }
    for (const w of [...user.waiters]) if (w.match(message)) w.resolve(message);
  };

  /** The next event of the user's that matches, or null after `ms`. */
  const waitFor = (user, match, ms) =>
    new Promise((resolve) => {
      const w = { match, resolve: (m) => done(m) };
      const timer = setTimeout(() => done(null), ms);
      const done = (m) => {
        clearTimeout(timer);
        user.waiters.delete(w);
        resolve(m);
      };
      user.waiters.add(w);
    });

  /** Lets the last events land (up to one deadline), then judges what is still missing. */
  const drain = async () => {
    const until = now() + eventTimeoutMs + 500;
    while (pending.size && now() < until) await new Promise((r) => setTimeout(r, 200));
    judge();
    clearInterval(sweeper);
  };

  return { expectEvent, deliver, waitFor, drain };
}

module.exports = { createInbox };
