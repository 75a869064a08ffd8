'use strict';
/** The bench's live-socket clients (fan-out and capacity workers): opening one, and reading ride_requested cheaply. */
const WebSocket = require('ws');

const TYPE_REQUESTED = Buffer.from('"type":"ride_requested"');
const RIDE_ID = Buffer.from('"ride_id":"');
const AT = Buffer.from('"at":"');

/**
 * Opens the live socket of an access token. Resolves true once open, false when it errors or closes
 * first. onOpen(socket) on open, onFrame(bytes) per message, onClose(wasOpen) when it closes.
 */
function openLiveSocket(wsBase, token, { onOpen, onFrame, onClose }) {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${wsBase}/api/v1/ws/rides/live?token=${token}`, { perMessageDeflate: false });
    let settled = false;
    const done = (ok) => {
      if (!settled) {
        settled = true;
        resolve(ok);
      }
    };
    socket.on('open', () => {
      onOpen(socket);
      done(true);
    });
    socket.on('message', (raw) => onFrame(Buffer.isBuffer(raw) ? raw : Buffer.concat([].concat(raw))));
    socket.on('error', () => done(false));
    socket.on('close', () => {
      onClose(settled);
      done(false);
    });
  });
}

/**
 * The ride id of a ride_requested frame, read from its bytes: the clients share the cores with the
 * service, and decoding or parsing thousands of ~2 KB frames a second would weigh on the very latency
 * measured. null for any other frame; '' for a ride_requested without a ride id.
 */
function requestedRideId(bytes) {
  if (bytes.indexOf(TYPE_REQUESTED) === -1) return null;
  const at = bytes.indexOf(RIDE_ID);
  return at === -1 ? '' : bytes.toString('latin1', at + RIDE_ID.length, at + RIDE_ID.length + 36);
}

/**
 * The frame's `at` (the server stamps it when it serialises the event, before the first write) in epoch
 * milliseconds: the message's last key, so read from the end. NaN when absent.
 */
function stampedAt(bytes) {
  const at = bytes.lastIndexOf(AT);
  return at === -1 ? NaN : Date.parse(bytes.toString('latin1', at + AT.length, at + AT.length + 24));
}

module.exports = { openLiveSocket, requestedRideId, stampedAt };
