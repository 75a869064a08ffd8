'use strict';
/** Keeps the first request/response per endpoint and status, for the mobile guide's examples. */
function createCapture() {
  const data = { http: {}, events: {} };
  return {
    data,
    http(label, request, status, body) {
      const key = `${label} ${status}`;
      if (!data.http[key]) data.http[key] = { request, status, response: body };
    },
    event(message) {
      const key = message.data && message.data.bid_status ? `${message.type} (${message.data.bid_status})` : message.type;
      if (!data.events[key]) data.events[key] = message;
    },
  };
}

module.exports = { createCapture };
