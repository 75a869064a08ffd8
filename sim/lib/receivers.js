'use strict';
/**
 * Events that reached the wrong user (CONTRACT §5's routing): a passenger never gets
 * ride_requested nor another passenger's events, a driver gets ride_requested only near the pickup
 * and a ride's later events only for rides it bid on or drives.
 */
const { distanceKm } = require('./geo');

const FORBIDDEN_RADIUS_KM = 6; // well outside MATCHING_RADIUS_KM (5): must not be told
const RIDE_EVENTS = new Set(['ride_requested', 'ride_accepted', 'ride_status_changed', 'ride_cancelled', 'ride_tipped', 'ride_rated']);

function createReceiverCheck({ report, chat, rides }) {
  return (user, message) => {
    const ride = message.data && message.data.ride;
    if (message.type === 'error') return report('wrong-event', `${user.role} ${user.id} got error ${JSON.stringify(message.data)}`);
    if (chat.checkReceiver(user, message, rides)) return;
    if (user.role === 'passenger') {
      if (message.type === 'ride_requested') return report('wrong-receiver', `passenger ${user.id} got ride_requested for ${message.ride_id}`);
      if (message.type === 'bid_submitted') {
        const r = rides.get(message.data.bid.ride_id);
        // A bid can beat the booking's own response: judged once that response is in.
        if (!r && user.booking) return user.booking.earlyBids.push(message.data.bid.ride_id);
        if (!r || r.passengerId !== user.id)
          report('wrong-receiver', `passenger ${user.id} got bid_submitted for another passenger's ride ${message.data.bid.ride_id}`);
        return;
      }
      if (ride && ride.passenger && ride.passenger.id !== user.id)
        report('wrong-receiver', `passenger ${user.id} got ${message.type} for passenger ${ride.passenger.id}'s ride ${ride.id}`);
      return;
    }
    if (message.type === 'bid_submitted' || message.type === 'driver_location') return report('wrong-receiver', `driver ${user.id} got ${message.type}`);
    if (message.type === 'ride_requested') {
      const positions = [...user.beats.slice(-2).map((b) => b.pos), ...(user.inFlight ? [user.inFlight] : [])];
      const nearest = Math.min(...positions.map((p) => distanceKm(p, ride.pickup)));
      if (positions.length === 0 || nearest > FORBIDDEN_RADIUS_KM)
        report('wrong-receiver', `driver ${user.id} got ride_requested for ${ride.id} while ${nearest.toFixed(1)} km from the pickup`);
      return;
    }
    if (RIDE_EVENTS.has(message.type) && ride) {
      if (message.data.bid_status) {
        if (!user.bidRides.has(ride.id))
          report('wrong-receiver', `driver ${user.id} got ${message.type} (${message.data.bid_status}) for ride ${ride.id} without having bid on it`);
      } else if (!ride.driver || ride.driver.id !== user.id) {
        report('wrong-receiver', `driver ${user.id} got ${message.type} for ride ${ride.id} assigned to ${ride.driver ? ride.driver.id : 'nobody'}`);
      }
    }
  };
}

module.exports = { createReceiverCheck };
