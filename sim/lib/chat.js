'use strict';
/**
 * In-ride chat (CONTRACT §11) in the simulation: when the driver reaches the pickup it writes to the
 * passenger, who answers. Each message must come back trimmed with the sender's role, and reach the
 * other party (and only them: the receiver check in run.js refuses a chat_message to its sender or
 * to a stranger) within the event deadline.
 */
const LINES = [
  ["I'm at the pickup, white car by the entrance.", 'Coming down now!'],
  ['Arrived. Take your time.', 'Two minutes, thanks.'],
  ["I'm here, hazard lights on.", 'See you in a sec.'],
];

function createChat({ api, report, expectEvent, counters }) {
  counters.messages = 0;

  /** One message from `from` to `to`; false when the ride no longer takes messages (a cancel won the race). */
  const say = async (from, to, ride, text) => {
    const res = await api.call(from.base, 'POST', `/rides/${ride.id}/messages`, {
      token: from.token,
      body: { text: `  ${text}\n` },
      label: 'POST /rides/{id}/messages',
      expect: [409],
      who: `${from.role} ${from.id}`,
    });
    if (res.status === 409) {
      if (!ride.cancelIntent && ride.status !== 'cancelled')
        report('unexpected-status', `POST /rides/{id}/messages (${from.role} ${from.id}) → 409 on live ride ${ride.id}`);
      return false;
    }
    if (!res.ok) return false;
    counters.messages++;
    const m = res.body;
    if (m.text !== text || m.sender_role !== from.role || m.ride_id !== ride.id) {
      report('wrong-body', `POST /rides/{id}/messages answered ${JSON.stringify(m)} for "${text}" by the ${from.role}`);
    }
    expectEvent(to, 'chat_message', ride.id, (e) => e.type === 'chat_message' && e.data.message.id === m.id && e.data.message.text === text, res);
    return true;
  };

  /** The driver at the pickup and the passenger exchange one message each. */
  const atPickup = async (driver, passenger, ride) => {
    if (!passenger) return;
    // Chosen by the ride, not the driver's generator: the rest of the run plays as without chat.
    const [hello, answer] = LINES[ride.id.charCodeAt(0) % LINES.length];
    if (await say(driver, passenger, ride, hello)) await say(passenger, driver, ride, answer);
  };

  /** A chat_message may reach only the other party of one of the user's own rides. */
  const checkReceiver = (user, message, rides) => {
    if (message.type !== 'chat_message') return false;
    const ride = rides.get(message.ride_id);
    const mine = ride && (user.role === 'passenger' ? ride.passengerId === user.id : ride.driverId === user.id);
    if (!mine) report('wrong-receiver', `${user.role} ${user.id} got chat_message for ride ${message.ride_id}, not theirs`);
    else if (message.data.message.sender_role === user.role) report('wrong-receiver', `${user.role} ${user.id} got its own chat_message back`);
    return true;
  };

  return { atPickup, checkReceiver };
}

module.exports = { createChat };
