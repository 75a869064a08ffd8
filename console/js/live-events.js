// The operator's live socket (CONTRACT §13, §14): SOS alerts and failed payments arrive as they happen,
// not at the next poll. One socket per tab; it reconnects (with a fresh token) until the operator signs out.

import { api, session } from './api.js';

const PATH = '/api/v1/ws/rides/live';
/** Close codes after which reconnecting cannot help: the token was refused, the account blocked or removed. */
const FINAL = [4401, 4403];

let socket = null;
let retry = null;
let stopped = true;

/** onEvent(message) for each alert; onState('live' | 'offline') as the socket comes and goes. */
export function listen({ onEvent, onState }) {
  stop();
  stopped = false;
  let delay = 1000;
  const open = () => {
    const token = session()?.access_token;
    if (!token || stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}${PATH}?token=${encodeURIComponent(token)}`);
    socket.addEventListener('open', () => {
      delay = 1000;
      onState('live');
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === 'sos_raised' || message.type === 'payment_failed') onEvent(message);
    });
    socket.addEventListener('close', async (event) => {
      socket = null;
      onState('offline');
      if (stopped) return;
      // A refused token may only have expired: one authenticated call refreshes it (or ends the session).
      if (FINAL.includes(event.code) && !(await api('GET', '/admin/operators')).ok) return;
      retry = setTimeout(open, delay);
      delay = Math.min(delay * 2, 30_000);
    });
  };
  open();
}

export function stop() {
  stopped = true;
  clearTimeout(retry);
  socket?.close(1000);
  socket = null;
}
